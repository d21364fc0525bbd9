package dev.agentpersistence.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.agentpersistence.cli.CliException;
import dev.agentpersistence.cli.ExitCode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The read-only web inspector: the JDK's HTTP server on 127.0.0.1, serving the static page ({@code index.html},
 * {@code app.js}, {@code style.css} from the jar) and a small JSON API over one store. Only {@code GET}; requests whose
 * {@code Host} is not this loopback address are refused (so a web page elsewhere cannot reach it through DNS
 * rebinding).
 *
 * <table>
 *   <caption>API</caption>
 *   <tr><td>{@code /api/store}</td><td>{@code {"description": …}}</td></tr>
 *   <tr><td>{@code /api/agents}</td><td>as {@code agents --json}</td></tr>
 *   <tr><td>{@code /api/timeline?agent=A}</td><td>as {@code list A --json}</td></tr>
 *   <tr><td>{@code /api/checkpoint?agent=A[&ref=V|ID]}</td><td>as {@code show A [ref] --json}</td></tr>
 *   <tr><td>{@code /api/diff?agent=A&from=V1&to=V2}</td><td>as {@code diff A V1 V2 --json}</td></tr>
 * </table>
 *
 * Failures answer {@code {"error": …}} with 400, 404, 503 or 500.
 */
public final class InspectorServer implements AutoCloseable {
    private static final String WEB = "/dev/agentpersistence/cli/web/";
    private static final Map<String, String> STATIC =
            Map.of("/", "index.html", "/index.html", "index.html", "/app.js", "app.js", "/style.css", "style.css");

    private final Store store;
    private final HttpServer server;

    private InspectorServer(Store store, HttpServer server) {
        this.store = store;
        this.server = server;
    }

    /**
     * Starts serving {@code store} on 127.0.0.1:{@code port} (0: any free port). The store stays open until the caller
     * closes it.
     */
    public static InspectorServer start(Store store, int port) {
        Objects.requireNonNull(store, "store");
        if (port < 0 || port > 65_535) {
            throw CliException.usage("--port must be 0 to 65535 but was " + port);
        }
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
            var inspector = new InspectorServer(store, server);
            server.createContext("/", inspector::handle);
            server.start();
            return inspector;
        } catch (IOException e) {
            throw new CliException(ExitCode.USAGE, "cannot listen on 127.0.0.1:" + port + ": " + e.getMessage(), e);
        }
    }

    /** Where the inspector is, e.g. {@code http://127.0.0.1:8080/}. */
    public URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    }

    /** Stops serving (the store is not closed). */
    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
            exchange.getResponseHeaders().set("Cache-Control", "no-store");
            if (!"GET".equals(exchange.getRequestMethod())) {
                exchange.getResponseHeaders().set("Allow", "GET");
                send(exchange, 405, "application/json", error("only GET: the inspector is read-only"));
                return;
            }
            if (!isLocalHost(exchange.getRequestHeaders().getFirst("Host"))) {
                send(exchange, 403, "application/json", error("unexpected Host header"));
                return;
            }
            String path = exchange.getRequestURI().getPath();
            if (STATIC.containsKey(path)) {
                sendStatic(exchange, STATIC.get(path));
            } else if (path.startsWith("/api/")) {
                sendApi(
                        exchange,
                        path.substring("/api/".length()),
                        exchange.getRequestURI().getRawQuery());
            } else {
                send(exchange, 404, "application/json", error("no page " + path));
            }
        }
    }

    private void sendApi(HttpExchange exchange, String call, String rawQuery) throws IOException {
        JsonNode answer;
        int status = 200;
        try {
            Map<String, String> query = query(rawQuery);
            answer = switch (call) {
                case "store" -> Json.object().put("description", store.description());
                case "agents" -> Reports.agents(store);
                case "timeline" -> Reports.timeline(store, required(query, "agent"), null);
                case "checkpoint" -> Json.checkpoint(store.checkpoint(required(query, "agent"), query.get("ref")));
                case "diff" -> {
                    String agent = required(query, "agent");
                    yield CheckpointDiff.of(
                                    store.checkpoint(agent, required(query, "from")),
                                    store.checkpoint(agent, required(query, "to")))
                            .toJson();
                }
                default -> throw CliException.notFound("no API call '" + call + "'");
            };
        } catch (RuntimeException e) {
            status = switch (Failures.exitCode(e)) {
                case ExitCode.NOT_FOUND -> 404;
                case ExitCode.USAGE -> 400;
                case ExitCode.UNAVAILABLE -> 503;
                default -> 500;
            };
            answer = Json.object().put("error", store.redact(Failures.describe(e)));
        }
        send(exchange, status, "application/json", Json.line(answer).getBytes(StandardCharsets.UTF_8));
    }

    private static void sendStatic(HttpExchange exchange, String name) throws IOException {
        try (InputStream in = InspectorServer.class.getResourceAsStream(WEB + name)) {
            if (in == null) {
                send(exchange, 404, "application/json", error("missing resource " + name));
                return;
            }
            String type = name.endsWith(".html")
                    ? "text/html; charset=utf-8"
                    : name.endsWith(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8";
            exchange.getResponseHeaders()
                    .set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'");
            send(exchange, 200, type, in.readAllBytes());
        }
    }

    private static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders()
                .set("Content-Type", type.startsWith("application/json") ? "application/json; charset=utf-8" : type);
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private static byte[] error(String message) {
        return Json.line(Json.object().put("error", message)).getBytes(StandardCharsets.UTF_8);
    }

    private boolean isLocalHost(String host) {
        if (host == null) {
            return false;
        }
        int port = server.getAddress().getPort();
        String lower = host.toLowerCase(Locale.ROOT);
        return lower.equals("127.0.0.1:" + port) || lower.equals("localhost:" + port);
    }

    private static String required(Map<String, String> query, String name) {
        String value = query.get(name);
        if (value == null || value.isEmpty()) {
            throw CliException.usage("missing query parameter '" + name + "'");
        }
        return value;
    }

    private static Map<String, String> query(String raw) {
        var parameters = new HashMap<String, String>();
        if (raw == null || raw.isEmpty()) {
            return parameters;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            try {
                parameters.put(
                        URLDecoder.decode(name, StandardCharsets.UTF_8),
                        URLDecoder.decode(value, StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw CliException.usage("malformed query '" + raw + "'");
            }
        }
        return parameters;
    }
}
