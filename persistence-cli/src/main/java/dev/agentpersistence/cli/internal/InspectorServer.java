package dev.agentpersistence.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.cli.CliException;
import dev.agentpersistence.cli.ExitCode;
import dev.agentpersistence.cli.internal.LoopbackHttpServer.Request;
import dev.agentpersistence.cli.internal.LoopbackHttpServer.Response;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The read-only web inspector: a small HTTP server on 127.0.0.1 ({@link LoopbackHttpServer}: a bounded pool of workers,
 * each request read within a deadline), serving the static page ({@code index.html}, {@code app.js}, {@code style.css}
 * from the jar) and a small JSON API over one store. Only {@code GET}; requests whose {@code Host} is not this loopback
 * address are refused (so a web page elsewhere cannot reach it through DNS rebinding), and so are requests a browser
 * marks as coming from another site ({@code Origin}, {@code Sec-Fetch-Site}) with 403.
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
 * Failures answer {@code {"error": …}} with 400, 404, 503 or 500. Answers are JSON whose strings hold no {@code <},
 * {@code >}, {@code &} or {@code '} unescaped ({@link Json#htmlSafeLine}), and the page inserts stored text as text
 * only, so stored text (a violation message, a node id) never becomes markup.
 */
public final class InspectorServer implements AutoCloseable {
    private static final String WEB = "/dev/agentpersistence/cli/web/";
    private static final Map<String, String> STATIC =
            Map.of("/", "index.html", "/index.html", "index.html", "/app.js", "app.js", "/style.css", "style.css");

    private static final int WORKERS = 8;
    private static final Duration REQUEST_DEADLINE = Duration.ofSeconds(10);

    private final Store store;
    private LoopbackHttpServer server;

    private InspectorServer(Store store) {
        this.store = store;
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
        var inspector = new InspectorServer(store);
        try {
            inspector.server = LoopbackHttpServer.start(port, WORKERS, REQUEST_DEADLINE, inspector::handle);
            return inspector;
        } catch (IOException e) {
            throw new CliException(ExitCode.USAGE, "cannot listen on 127.0.0.1:" + port + ": " + e.getMessage(), e);
        }
    }

    /** Where the inspector is, e.g. {@code http://127.0.0.1:8080/}. */
    public URI uri() {
        return URI.create("http://127.0.0.1:" + server.port() + "/");
    }

    /** Stops serving (the store is not closed). */
    @Override
    public void close() {
        server.close();
    }

    private Response handle(Request request) {
        var headers = new LinkedHashMap<String, String>();
        headers.put("X-Content-Type-Options", "nosniff");
        headers.put("Cache-Control", "no-store");
        if (!"GET".equals(request.method())) {
            headers.put("Allow", "GET");
            return json(405, headers, error("only GET: the inspector is read-only"));
        }
        if (!isLocalHost(request.header("Host"))) {
            return json(403, headers, error("unexpected Host header"));
        }
        if (isCrossSite(request)) {
            return json(403, headers, error("a request from another site: the inspector answers its own page only"));
        }
        URI target;
        try {
            target = URI.create(request.target());
        } catch (IllegalArgumentException e) {
            return json(400, headers, error("malformed request target"));
        }
        String path = target.getPath() == null ? "" : target.getPath();
        if (STATIC.containsKey(path)) {
            return sendStatic(headers, STATIC.get(path));
        } else if (path.startsWith("/api/")) {
            return sendApi(headers, path.substring("/api/".length()), target.getRawQuery());
        }
        return json(404, headers, error("no page " + path));
    }

    /**
     * Whether a browser says the request comes from a page of another origin: an {@code Origin} other than this
     * inspector's, or {@code Sec-Fetch-Site} {@code cross-site} or {@code same-site}.
     */
    private boolean isCrossSite(Request request) {
        String origin = request.header("Origin");
        if (origin != null && !isLocalOrigin(origin)) {
            return true;
        }
        String site = request.header("Sec-Fetch-Site");
        return site != null && (site.equalsIgnoreCase("cross-site") || site.equalsIgnoreCase("same-site"));
    }

    private boolean isLocalOrigin(String origin) {
        String lower = origin.toLowerCase(Locale.ROOT);
        return lower.startsWith("http://") && isLocalHost(lower.substring("http://".length()));
    }

    private Response sendApi(Map<String, String> headers, String call, String rawQuery) {
        JsonNode answer;
        int status = 200;
        try {
            Map<String, String> query = query(rawQuery);
            answer = switch (call) {
                case "store" -> Json.object().put("description", store.description());
                case "agents" -> Reports.agents(store);
                case "timeline" -> Reports.timeline(store, required(query, "agent"), null);
                case "run" -> RunReport.of(store, required(query, "agent"), Clock.systemUTC());
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
        return json(status, headers, Json.htmlSafeLine(answer).getBytes(StandardCharsets.UTF_8));
    }

    private static Response sendStatic(Map<String, String> headers, String name) {
        try (InputStream in = InspectorServer.class.getResourceAsStream(WEB + name)) {
            if (in == null) {
                return json(404, headers, error("missing resource " + name));
            }
            String type = name.endsWith(".html")
                    ? "text/html; charset=utf-8"
                    : name.endsWith(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8";
            headers.put("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'");
            headers.put("Content-Type", type);
            return new Response(200, Map.copyOf(headers), in.readAllBytes());
        } catch (IOException e) {
            return json(500, headers, error("cannot read resource " + name));
        }
    }

    private static Response json(int status, Map<String, String> headers, byte[] body) {
        var all = new LinkedHashMap<>(headers);
        all.put("Content-Type", "application/json; charset=utf-8");
        return new Response(status, all, body);
    }

    private static byte[] error(String message) {
        return Json.line(Json.object().put("error", message)).getBytes(StandardCharsets.UTF_8);
    }

    private boolean isLocalHost(String host) {
        if (host == null) {
            return false;
        }
        int port = server.port();
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
