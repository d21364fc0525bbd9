package dev.agentpersistence.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.cli.internal.InspectorServer;
import dev.agentpersistence.cli.internal.Json;
import dev.agentpersistence.cli.internal.Store;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The inspector's HTTP side: the static page from the jar, the JSON API, read-only, loopback only. */
class InspectorServerTest {
    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path directory;

    @Test
    void servesThePageAndTheApiAndRefusesEverythingElse() throws Exception {
        Path file = directory.resolve("agents.db");
        try (var provider = StorageUri.parse("jdbc:sqlite:" + file.toAbsolutePath(), ProviderConfig.empty())
                .open()) {
            Fixtures.seed(provider);
        }
        try (Store store = Store.open("jdbc:sqlite:" + file, ProviderConfig.empty());
                InspectorServer server = InspectorServer.start(store, 0)) {
            URI base = server.uri();
            assertThat(base.getHost()).isEqualTo("127.0.0.1");

            var page = get(base.resolve("/"));
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.headers().firstValue("Content-Type")).contains("text/html; charset=utf-8");
            assertThat(page.headers().firstValue("Content-Security-Policy"))
                    .hasValueSatisfying(csp -> assertThat(csp).contains("default-src 'self'"));
            assertThat(page.body()).contains("<script src=\"/app.js\">");
            assertThat(get(base.resolve("/app.js")).body()).contains("function conversation");

            var agents = Json.MAPPER.readTree(get(base.resolve("/api/agents")).body());
            assertThat(agents.get(1).get("agentId").asText()).isEqualTo("support");
            var timeline = Json.MAPPER.readTree(
                    get(base.resolve("/api/timeline?agent=support")).body());
            assertThat(timeline).hasSize(3);
            var checkpoint = Json.MAPPER.readTree(get(base.resolve("/api/checkpoint?agent=support&ref=support-cp-1"))
                    .body());
            assertThat(checkpoint.get("version").asInt()).isEqualTo(1);
            var diff = Json.MAPPER.readTree(
                    get(base.resolve("/api/diff?agent=support&from=0&to=1")).body());
            assertThat(diff.get("messagesAdded")).hasSize(2);

            var missing = get(base.resolve("/api/checkpoint?agent=support&ref=7"));
            assertThat(missing.statusCode()).isEqualTo(404);
            assertThat(Json.MAPPER.readTree(missing.body()).get("error").asText())
                    .contains("no checkpoint version 7");
            assertThat(get(base.resolve("/api/timeline")).statusCode()).isEqualTo(400);
            assertThat(get(base.resolve("/api/nothing")).statusCode()).isEqualTo(404);
            assertThat(get(base.resolve("/etc/passwd")).statusCode()).isEqualTo(404);

            var post = http.send(
                    HttpRequest.newBuilder(base.resolve("/api/agents"))
                            .POST(HttpRequest.BodyPublishers.ofString("{}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(post.statusCode()).isEqualTo(405);

            assertThat(rawStatusLine(base, "evil.example:" + base.getPort())).contains(" 403 ");
            assertThat(rawStatusLine(base, "localhost:" + base.getPort())).contains(" 200 ");
        }
    }

    private HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String rawStatusLine(URI base, String host) throws IOException {
        try (var socket = new Socket(base.getHost(), base.getPort())) {
            socket.getOutputStream()
                    .write(("GET /api/store HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .findFirst()
                    .orElse("");
        }
    }
}
