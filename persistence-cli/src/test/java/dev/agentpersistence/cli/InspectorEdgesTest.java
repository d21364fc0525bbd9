package dev.agentpersistence.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.cli.internal.InspectorServer;
import dev.agentpersistence.cli.internal.Store;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The inspector under hostile clients: a half-sent request does not stall others; cross-site requests are refused. */
class InspectorEdgesTest {
    @TempDir
    Path directory;

    private Store seeded() {
        Path file = directory.resolve("agents.db");
        try (var provider = StorageUri.parse("jdbc:sqlite:" + file.toAbsolutePath(), ProviderConfig.empty())
                .open()) {
            Fixtures.seed(provider);
        }
        return Store.open("jdbc:sqlite:" + file, ProviderConfig.empty());
    }

    @Test
    void aClientSendingHalfARequestDoesNotFreezeTheOthers() throws Exception {
        try (Store store = seeded();
                InspectorServer server = InspectorServer.start(store, 0);
                var stalled = new Socket("127.0.0.1", server.uri().getPort())) {
            stalled.getOutputStream()
                    .write("GET /api/agents HTTP/1.1\r\nHost: 127.0".getBytes(StandardCharsets.US_ASCII));
            stalled.getOutputStream().flush();
            long start = System.nanoTime();
            String answer =
                    request(server.uri(), "Host: 127.0.0.1:" + server.uri().getPort(), Duration.ofSeconds(3));
            assertThat(answer).startsWith("HTTP/1.1 200").contains("support");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
        }
    }

    @Test
    void aRequestFromAnotherSiteIsRefused() throws Exception {
        try (Store store = seeded();
                InspectorServer server = InspectorServer.start(store, 0)) {
            URI base = server.uri();
            String host = "Host: 127.0.0.1:" + base.getPort();
            Duration wait = Duration.ofSeconds(5);
            assertThat(request(base, host + "\r\nOrigin: http://evil.example", wait))
                    .startsWith("HTTP/1.1 403");
            assertThat(request(base, host + "\r\nSec-Fetch-Site: cross-site", wait))
                    .startsWith("HTTP/1.1 403");
            assertThat(request(base, host + "\r\nOrigin: http://127.0.0.1:" + base.getPort(), wait))
                    .startsWith("HTTP/1.1 200");
            assertThat(request(base, host + "\r\nSec-Fetch-Site: same-origin", wait))
                    .startsWith("HTTP/1.1 200");
        }
    }

    private static String request(URI base, String headers, Duration timeout) throws IOException {
        try (var socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout((int) timeout.toMillis());
            socket.getOutputStream()
                    .write(("GET /api/agents HTTP/1.1\r\n" + headers + "\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
