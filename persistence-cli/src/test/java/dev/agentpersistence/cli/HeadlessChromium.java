package dev.agentpersistence.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.cli.internal.Json;
import dev.agentpersistence.tck.TestServices;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * A real headless Chromium driven through chromedriver's W3C WebDriver HTTP protocol with the JDK's HTTP client:
 * Debian's {@code chromium} and {@code chromium-driver} (installed by {@code .ci/run}). Missing, it skips the test, or
 * fails it when services are required.
 */
final class HeadlessChromium implements AutoCloseable {
    private static final String ELEMENT = "element-6066-11e4-a52e-4f735466cecf";
    private static final Duration WAIT = Duration.ofSeconds(15);

    private final Process driver;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI base;
    private final String session;

    private HeadlessChromium(Process driver, URI base, Path profile) throws IOException, InterruptedException {
        this.driver = driver;
        this.base = base;
        waitUntilReady();
        ObjectNode request = Json.object();
        ObjectNode options = request.putObject("capabilities")
                .putObject("alwaysMatch")
                .put("browserName", "chrome")
                .putObject("goog:chromeOptions");
        options.put("binary", executable("chromium").orElseThrow().toString());
        var args = options.putArray("args");
        for (String arg : List.of(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--window-size=1200,900",
                "--user-data-dir=" + profile)) {
            args.add(arg);
        }
        this.session = call("POST", "/session", request).at("/value/sessionId").asText();
    }

    /** Starts chromedriver and a browser session; {@code work} receives its log and a fresh profile. */
    static HeadlessChromium start(Path work) throws IOException, InterruptedException {
        var missing = new ArrayList<String>();
        if (executable("chromium").isEmpty()) {
            missing.add("no chromium on the PATH (Debian package chromium)");
        }
        if (executable("chromedriver").isEmpty()) {
            missing.add("no chromedriver on the PATH (Debian package chromium-driver)");
        }
        if (!missing.isEmpty()) {
            return TestServices.unavailable("Chromium", missing);
        }
        int port;
        try (var socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Path profile = Files.createDirectories(work.resolve("profile"));
        Process driver = new ProcessBuilder(
                        executable("chromedriver").orElseThrow().toString(), "--port=" + port)
                .redirectErrorStream(true)
                .redirectOutput(work.resolve("chromedriver.log").toFile())
                .start();
        try {
            return new HeadlessChromium(driver, URI.create("http://127.0.0.1:" + port), profile);
        } catch (IOException | RuntimeException | InterruptedException e) {
            driver.destroyForcibly();
            throw e;
        }
    }

    void open(URI page) throws IOException, InterruptedException {
        call("POST", "/session/" + session + "/url", Json.object().put("url", page.toString()));
    }

    /** The elements matching {@code css} once at least one is there. */
    List<String> waitForAll(String css) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            List<String> found = findAll(css);
            if (!found.isEmpty()) {
                return found;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no element matches " + css + " after " + WAIT + "; page text: " + pageText());
            }
            Thread.sleep(100);
        }
    }

    String waitFor(String css) throws IOException, InterruptedException {
        return waitForAll(css).get(0);
    }

    List<String> findAll(String css) throws IOException, InterruptedException {
        JsonNode found = call(
                        "POST",
                        "/session/" + session + "/elements",
                        Json.object().put("using", "css selector").put("value", css))
                .get("value");
        var ids = new ArrayList<String>();
        if (!found.isArray()) {
            throw new IOException("finding " + css + " answered " + found);
        }
        for (JsonNode element : found) {
            if (!element.has(ELEMENT)) {
                throw new IOException("an element without its reference: " + element);
            }
            ids.add(element.get(ELEMENT).asText());
        }
        return ids;
    }

    String text(String element) throws IOException, InterruptedException {
        return call("GET", "/session/" + session + "/element/" + element + "/text", null)
                .get("value")
                .asText();
    }

    void click(String element) throws IOException, InterruptedException {
        call("POST", "/session/" + session + "/element/" + element + "/click", Json.object());
    }

    String pageText() throws IOException, InterruptedException {
        return text(findAll("body").get(0));
    }

    String currentUrl() throws IOException, InterruptedException {
        return call("GET", "/session/" + session + "/url", null).get("value").asText();
    }

    void screenshot(Path file) throws IOException, InterruptedException {
        String png = call("GET", "/session/" + session + "/screenshot", null)
                .get("value")
                .asText();
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.write(file, Base64.getDecoder().decode(png));
    }

    @Override
    public void close() throws IOException, InterruptedException {
        try {
            call("DELETE", "/session/" + session, null);
        } finally {
            driver.destroy();
            if (!driver.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
                driver.destroyForcibly();
            }
        }
    }

    private void waitUntilReady() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            try {
                if (call("GET", "/status", null).at("/value/ready").asBoolean()) {
                    return;
                }
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
            if (!driver.isAlive()) {
                throw new IOException("chromedriver exited with " + driver.exitValue());
            }
            Thread.sleep(100);
        }
    }

    private JsonNode call(String method, String path, JsonNode body) throws IOException, InterruptedException {
        var request = HttpRequest.newBuilder(base.resolve(path))
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json; charset=utf-8")
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(Json.line(body)))
                .build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        JsonNode json = Json.MAPPER.readTree(response.body());
        if (response.statusCode() >= 400) {
            throw new IOException(method + " " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return json;
    }

    private static Optional<Path> executable(String name) {
        for (String directory : System.getenv().getOrDefault("PATH", "/usr/bin").split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(directory, name);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
