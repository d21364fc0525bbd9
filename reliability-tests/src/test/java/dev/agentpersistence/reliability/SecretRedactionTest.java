package dev.agentpersistence.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Failures provoked with {@code user:secret@} URIs (and password settings) on the jdbc, redis and s3 endpoints: the
 * password appears in no exception message, {@code toString}, cause, stack trace or log line. Standard output and error
 * (where the logs go) are captured while the calls run.
 */
class SecretRedactionTest {
    /** The password as a word: "secret" not part of a setting name such as secret-access-key. */
    private static final Pattern SECRET = Pattern.compile("(?<![\\w.-])secret(?![\\w-])");

    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    private PrintStream originalOut;
    private PrintStream originalErr;

    @BeforeEach
    void capture() {
        originalOut = System.out;
        originalErr = System.err;
        var tee = new PrintStream(captured, true, StandardCharsets.UTF_8);
        System.setOut(tee);
        System.setErr(tee);
    }

    @AfterEach
    void restore() {
        System.setOut(originalOut);
        System.setErr(originalErr);
    }

    @Test
    void passwordsInEndpointsNeverAppearInErrorsOrLogs() throws Exception {
        int closed = Ports.free();
        var attempts = new LinkedHashMap<String, Map<String, String>>();
        attempts.put(
                "jdbc postgresql password parameter, nothing listening",
                Map.of(
                        "agent.persistence.provider",
                        "jdbc",
                        "agent.persistence.jdbc.url",
                        "jdbc:postgresql://127.0.0.1:" + closed + "/test?user=app&password=secret",
                        "agent.persistence.jdbc.connection-timeout",
                        "1s"));
        attempts.put(
                "jdbc mariadb credentials in the URI, nothing listening",
                Map.of(
                        "agent.persistence.provider",
                        "jdbc",
                        "agent.persistence.jdbc.url",
                        "jdbc:mariadb://app:secret@127.0.0.1:" + closed + "/test",
                        "agent.persistence.jdbc.connection-timeout",
                        "1s"));
        attempts.put(
                "jdbc mariadb wrong password on the shared server",
                Map.of(
                        "agent.persistence.provider",
                        "jdbc",
                        "agent.persistence.jdbc.url",
                        SharedServers.mariadb().replaceAll("\\?.*$", "") + "?user=nobody",
                        "agent.persistence.jdbc.password",
                        "secret",
                        "agent.persistence.jdbc.connection-timeout",
                        "1s"));
        attempts.put(
                "redis credentials in the URI, nothing listening",
                Map.of(
                        "agent.persistence.provider",
                        "redis",
                        "agent.persistence.redis.uri",
                        "redis://app:secret@127.0.0.1:" + closed,
                        "agent.persistence.redis.connect-timeout",
                        "1s"));
        attempts.put(
                "redis credentials in the URI on the shared server without that user",
                Map.of(
                        "agent.persistence.provider",
                        "redis",
                        "agent.persistence.redis.uri",
                        SharedServers.redis().replace("redis://", "redis://app:secret@")));
        attempts.put(
                "s3 endpoint credentials in the URI, nothing listening",
                Map.of(
                        "agent.persistence.provider",
                        "s3",
                        "agent.persistence.s3.bucket",
                        "checkpoints",
                        "agent.persistence.s3.region",
                        "us-east-1",
                        "agent.persistence.s3.endpoint",
                        "http://app:secret@127.0.0.1:" + closed,
                        "agent.persistence.s3.access-key-id",
                        "app",
                        "agent.persistence.s3.secret-access-key",
                        "secret",
                        "agent.persistence.s3.connect-timeout",
                        "1s"));
        var failures = new ArrayList<String>();
        for (var attempt : attempts.entrySet()) {
            var config = ProviderConfig.of(attempt.getValue());
            failures.add(attempt.getKey() + ": config " + config);
            try (var storage = PersistenceStorageProviders.load(config)) {
                failures.add("provider " + storage);
                storage.saveCheckpoint("agent", Samples.of("agent", 0));
                failures.add(attempt.getKey() + ": no failure");
            } catch (RuntimeException e) {
                failures.add(attempt.getKey() + ": " + everything(e));
            }
        }
        String log = captured.toString(StandardCharsets.UTF_8);
        String all = String.join("\n", failures) + "\n" + log;
        assertThat(failures).as("every attempt failed").noneMatch(f -> f.endsWith("no failure"));
        assertThat(SECRET.matcher(all).find()).as("'secret' in:\n%s", all).isFalse();
        assertThat(all).contains("****");
        Figures.record(
                "secrets in errors and logs",
                "jdbc, redis, s3",
                attempts.size() + " failures provoked with "
                        + "user:secret@ URIs and password settings; " + all.length()
                        + " characters of messages, stack traces "
                        + "and log lines captured; 'secret' found 0 times");
    }

    private static String everything(Throwable e) {
        var text = new StringWriter();
        e.printStackTrace(new PrintWriter(text));
        var sb = new StringBuilder(text.toString());
        for (Throwable t = e; t != null; t = t.getCause()) {
            sb.append('\n').append(t).append('\n').append(t.getMessage());
        }
        return sb.toString();
    }
}
