package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * Checks that a failure never shows a secret: not in its message, the messages of its causes, nor anywhere in its
 * printed stack trace. For a provider's tests of credentials in URLs and settings.
 *
 * <pre>{@code
 * assertThatThrownBy(() -> provider.getLatestCheckpoint("agent"))
 *         .satisfies(e -> SecretAssertions.assertNowhere(e, "hunter2"));
 * }</pre>
 */
public final class SecretAssertions {
    private SecretAssertions() {}

    /** Fails naming {@code failure} when any of {@code secrets} appears in what it would print. */
    public static void assertNowhere(Throwable failure, String... secrets) {
        var trace = new StringWriter();
        failure.printStackTrace(new PrintWriter(trace));
        for (Throwable t = failure; t != null; t = t.getCause()) {
            trace.append('\n').append(String.valueOf(t.getMessage()));
        }
        for (String secret : secrets) {
            assertThat(trace.toString())
                    .as("messages and causes of %s", failure)
                    .doesNotContain(secret);
        }
    }
}
