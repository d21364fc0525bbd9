package dev.agentpersistence.examples.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/** Starts the application on a random port and reads its endpoints over HTTP. */
class CheckpointApplicationTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static ConfigurableApplicationContext application;
    private static String base;

    @BeforeAll
    static void start() {
        application = SpringApplication.run(CheckpointApplication.class, "--server.port=0");
        base = "http://127.0.0.1:" + application.getEnvironment().getProperty("local.server.port");
    }

    @AfterAll
    static void stop() {
        application.close();
    }

    @Test
    void checkpointsOverHttpAndReportsHealthAndMetrics() throws Exception {
        assertThat(send(HttpRequest.newBuilder(URI.create(base + "/agents/writer/notes"))
                        .header("Content-Type", "text/plain")
                        .POST(HttpRequest.BodyPublishers.ofString("first"))
                        .build()))
                .contains("\"version\":0");
        assertThat(send(HttpRequest.newBuilder(URI.create(base + "/agents/writer/notes"))
                        .header("Content-Type", "text/plain")
                        .POST(HttpRequest.BodyPublishers.ofString("second"))
                        .build()))
                .contains("\"version\":1")
                .contains("\"messages\":2");

        assertThat(get("/actuator/health"))
                .contains("\"agentPersistence\"")
                .contains("\"status\":\"UP\"")
                .contains("\"provider\":\"inmemory\"");
        assertThat(get("/actuator/prometheus"))
                .contains("agent_persistence_checkpoint_save_seconds_count{")
                .contains("agent_persistence_checkpoint_create_seconds_count{");
    }

    private static String get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET().build());
    }

    private static String send(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode())
                .as("%s %s: %s", request.method(), request.uri(), response.body())
                .isEqualTo(200);
        return response.body();
    }
}
