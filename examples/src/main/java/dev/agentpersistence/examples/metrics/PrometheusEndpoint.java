package dev.agentpersistence.examples.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Objects;

/**
 * A Prometheus scrape endpoint on the JDK's {@link HttpServer}: {@code GET /metrics} answers with the registry in the
 * Prometheus text format (or OpenMetrics when the scraper asks for it). Binds the loopback address only; close it to
 * stop the server.
 */
public final class PrometheusEndpoint implements AutoCloseable {
    /** The Prometheus text format 0.0.4. */
    public static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";
    /** OpenMetrics 1.0.0, which Prometheus prefers when it can. */
    public static final String OPENMETRICS_FORMAT = "application/openmetrics-text; version=1.0.0; charset=utf-8";

    private final HttpServer server;
    private final URI uri;

    private PrometheusEndpoint(HttpServer server) {
        this.server = server;
        InetSocketAddress address = server.getAddress();
        this.uri = URI.create("http://" + address.getAddress().getHostAddress() + ":" + address.getPort() + "/metrics");
    }

    /**
     * Starts serving {@code registry} on the loopback address.
     *
     * @param port the port, or 0 for any free one ({@link #uri()} tells which)
     */
    public static PrometheusEndpoint start(PrometheusMeterRegistry registry, int port) throws IOException {
        Objects.requireNonNull(registry, "registry");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be within 0-65535 but was " + port);
        }
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.createContext("/metrics", exchange -> scrape(registry, exchange));
        server.createContext("/", exchange -> {
            try (exchange) {
                byte[] body =
                        "agent-persistence metrics: GET /metrics\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
                exchange.sendResponseHeaders(exchange.getRequestURI().getPath().equals("/") ? 200 : 404, body.length);
                exchange.getResponseBody().write(body);
            }
        });
        server.start();
        return new PrometheusEndpoint(server);
    }

    /** The scrape URL, e.g. {@code http://127.0.0.1:9464/metrics}. */
    public URI uri() {
        return uri;
    }

    /** The port the server listens on. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** Stops the server at once. */
    @Override
    public void close() {
        server.stop(0);
    }

    private static void scrape(PrometheusMeterRegistry registry, HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("GET")
                    && !exchange.getRequestMethod().equals("HEAD")) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            String accept = exchange.getRequestHeaders().getFirst("Accept");
            String format = accept != null && accept.contains("application/openmetrics-text")
                    ? OPENMETRICS_FORMAT
                    : TEXT_FORMAT;
            var body = new ByteArrayOutputStream();
            registry.scrape(body, format);
            exchange.getResponseHeaders().set("Content-Type", format);
            boolean head = exchange.getRequestMethod().equals("HEAD");
            exchange.sendResponseHeaders(200, head ? -1 : body.size());
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    body.writeTo(out);
                }
            }
        }
    }

    @Override
    public String toString() {
        return "PrometheusEndpoint[" + uri + "]";
    }
}
