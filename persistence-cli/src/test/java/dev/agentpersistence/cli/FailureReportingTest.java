package dev.agentpersistence.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input ends with one clear line and a documented exit code; stack traces only with --verbose; passwords never
 * shown.
 */
class FailureReportingTest {
    private static final String KEY_A = Base64.getEncoder().encodeToString(new byte[32]);
    private static final String KEY_B =
            Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes());

    @TempDir
    Path directory;

    private static void assertOneLine(CliRun run, int exitCode, String... contains) {
        assertThat(run.exitCode()).as("%s", run).isEqualTo(exitCode);
        assertThat(run.err()).startsWith("agent-persistence: ").doesNotContain("\tat ");
        for (String text : contains) {
            assertThat(run.err()).contains(text);
        }
        assertThat(run.err().lines().filter(line -> !line.startsWith("Try ")).count())
                .as("%s", run)
                .isEqualTo(1);
    }

    @Test
    void badInputIsUsageExitCodeTwo() {
        assertOneLine(
                CliRun.of("agents", "--store", "mongodb://db:27017/x"),
                ExitCode.USAGE,
                "unknown storage",
                "jdbc:<url>");
        assertOneLine(CliRun.of("agents"), ExitCode.USAGE, "no store given");
        assertOneLine(CliRun.of("agents", "--store", "file:" + directory, "--colour"), ExitCode.USAGE, "--colour");
        assertOneLine(CliRun.of("frobnicate"), ExitCode.USAGE, "frobnicate");
        assertOneLine(CliRun.of(), ExitCode.USAGE, "no command given");
        assertOneLine(CliRun.of("list", "--store", "file:" + directory, "bad\u0001id"), ExitCode.USAGE, "agent");
        assertOneLine(
                CliRun.of("serve", "--port", "70000", "file:" + directory),
                ExitCode.USAGE,
                "--port must be 0 to 65535");
        assertOneLine(CliRun.of("copy", "--from", "file:" + directory), ExitCode.USAGE, "--to");
    }

    @Test
    void missingAgentsAndCheckpointsAreNotFound() {
        String store = "file:" + directory.resolve("store");
        try (var provider = StorageUri.parse(store, ProviderConfig.empty()).open()) {
            Fixtures.seed(provider);
        }
        assertOneLine(CliRun.of("show", "nobody", "--store", store), ExitCode.NOT_FOUND, "'nobody' has no checkpoints");
        assertOneLine(
                CliRun.of("show", "support", "9", "--store", store), ExitCode.NOT_FOUND, "no checkpoint version 9");
        assertOneLine(
                CliRun.of("diff", "support", "0", "nope", "--store", store),
                ExitCode.NOT_FOUND,
                "no checkpoint id nope");
        assertOneLine(CliRun.of("list", "nobody", "--store", store), ExitCode.NOT_FOUND, "no agent 'nobody'");
    }

    @Test
    void anUnreachableServerIsExitCodeThreeAndItsPasswordIsNeverPrinted() {
        String url = "jdbc:postgresql://127.0.0.1:1/test?user=app&password=hunter2-secret&connectTimeout=2";
        var run = CliRun.of("agents", "--store", url);
        assertOneLine(run, ExitCode.UNAVAILABLE);
        assertThat(run.err()).doesNotContain("hunter2-secret");

        var verbose = CliRun.of(
                "agents", "--verbose", "--store", url, "--set", "agent.persistence.jdbc.password=other-secret");
        assertThat(verbose.exitCode()).isEqualTo(ExitCode.UNAVAILABLE);
        assertThat(verbose.err())
                .contains("\tat ")
                .doesNotContain("hunter2-secret")
                .doesNotContain("other-secret");

        var attached =
                CliRun.of("agents", "--verbose", "--store", url, "--set=agent.persistence.jdbc.password=third-secret");
        assertThat(attached.exitCode()).isEqualTo(ExitCode.UNAVAILABLE);
        assertThat(attached.err())
                .as("a secret given as --set=key=value")
                .contains("\tat ")
                .doesNotContain("third-secret");
        var mistyped = CliRun.of("agents", "--store", url, "--sett=agent.persistence.jdbc.password=fourth-secret");
        assertThat(mistyped.err())
                .as("a mistyped option echoed in the usage error")
                .contains("--sett=")
                .doesNotContain("fourth-secret");

        assertOneLine(CliRun.of("agents", "--store", "redis://:pw-secret@127.0.0.1:1"), ExitCode.UNAVAILABLE);
        assertThat(CliRun.of("agents", "--store", "redis://:pw-secret@127.0.0.1:1")
                        .err())
                .doesNotContain("pw-secret");
    }

    @Test
    void aWrongOrMissingKeyIsUnreadableExitCodeFive() {
        Path file = directory.resolve("encrypted.db");
        var keyA = ProviderConfig.of(Map.of("agent.persistence.encryption.keys", "a:" + KEY_A));
        try (var provider = StorageUri.parse("jdbc:sqlite:" + file, keyA).open()) {
            Fixtures.seed(provider);
        }
        String store = "jdbc:sqlite:" + file;
        var right =
                CliRun.of("show", "support", "--store", store, "--set", "agent.persistence.encryption.keys=a:" + KEY_A);
        assertThat(right.exitCode()).as("%s", right).isZero();

        var wrong =
                CliRun.of("show", "support", "--store", store, "--set", "agent.persistence.encryption.keys=a:" + KEY_B);
        assertOneLine(wrong, ExitCode.UNREADABLE);
        assertThat(wrong.err()).doesNotContain(KEY_B).doesNotContain(KEY_A);
        assertOneLine(CliRun.of("show", "support", "--store", store), ExitCode.UNREADABLE, "key");

        var verify = CliRun.of("verify", "--store", store);
        assertThat(verify.exitCode()).as("%s", verify).isEqualTo(ExitCode.PROBLEMS_FOUND);
        assertThat(verify.out()).contains("0 checkpoints readable, 4 unreadable");
    }
}
