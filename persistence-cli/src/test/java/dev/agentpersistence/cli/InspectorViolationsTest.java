package dev.agentpersistence.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.cli.internal.InspectorServer;
import dev.agentpersistence.cli.internal.Json;
import dev.agentpersistence.cli.internal.Store;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Over HTTP, the inspector hands out the violations of a pipeline run's failed attempts as JSON whose strings hold no
 * markup, and its page renders them as text.
 */
class InspectorViolationsTest {
    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path directory;

    @Test
    void theFailedAttemptsOfARunAreServedEscapedForHtmlAndRenderedAsText() throws Exception {
        Path file = directory.resolve("pipeline.db");
        try (var provider = StorageUri.parse("jdbc:sqlite:" + file.toAbsolutePath(), ProviderConfig.empty())
                .open()) {
            assertThat(PipelineRuns.run(provider, "release-1").isCompleted()).isTrue();
        }
        try (Store store = Store.open("jdbc:sqlite:" + file, ProviderConfig.empty());
                InspectorServer server = InspectorServer.start(store, 0)) {
            URI base = server.uri();
            String agent = URLEncoder.encode("@run/release-1", StandardCharsets.UTF_8);

            HttpResponse<String> timeline = get(base.resolve("/api/timeline?agent=" + agent));

            assertThat(timeline.statusCode()).isEqualTo(200);
            assertThat(timeline.headers().firstValue("Content-Type")).contains("application/json; charset=utf-8");
            assertThat(timeline.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
            assertThat(timeline.body())
                    .as("no markup in the answer")
                    .doesNotContain("<b>", "</b>", "&", "'")
                    .contains("\\u003Cb\\u003Edone\\u003C/b\\u003E \\u0026 is \\u0027open\\u0027");
            JsonNode write = null;
            for (JsonNode row : Json.MAPPER.readTree(timeline.body())) {
                if ("write".equals(row.path("nodeId").asText())) {
                    write = row;
                }
            }
            assertThat(write).isNotNull();
            JsonNode failed = Json.MAPPER.readTree(
                    write.path("metadata").path("pipeline.failed-attempts").asText());
            assertThat(failed).hasSize(1);
            assertThat(failed.get(0).path("attempt").asInt()).isEqualTo(1);
            assertThat(failed.get(0).path("violations").get(0).path("condition").asText())
                    .isEqualTo("finished");
            assertThat(failed.get(0).path("violations").get(0).path("message").asText())
                    .as("the exact text, once unescaped")
                    .isEqualTo(PipelineRuns.VIOLATION);

            HttpResponse<String> checkpoint = get(base.resolve("/api/checkpoint?agent=" + agent + "&ref="
                    + write.path("version").asInt()));
            assertThat(checkpoint.body()).doesNotContain("<b>").contains("\\u003Cb\\u003E");

            String script = get(base.resolve("/app.js")).body();
            assertThat(script)
                    .as("the page reads the failed attempts and inserts them as text")
                    .contains("'pipeline.failed-attempts'", "function failedAttempts")
                    .doesNotContain("innerHTML", "insertAdjacentHTML", "outerHTML");

            HttpResponse<String> error = get(base.resolve("/api/timeline?agent="
                    + URLEncoder.encode("<img src=x onerror=alert(1)>", StandardCharsets.UTF_8)));
            assertThat(error.statusCode()).isEqualTo(404);
            assertThat(error.body()).doesNotContain("<img").contains("\\u003Cimg");
        }
    }

    private HttpResponse<String> get(URI uri) throws Exception {
        return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    }
}
