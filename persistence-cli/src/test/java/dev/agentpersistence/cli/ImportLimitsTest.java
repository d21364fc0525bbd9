package dev.agentpersistence.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.cli.internal.Importer;
import dev.agentpersistence.cli.internal.Progress;
import dev.agentpersistence.cli.internal.Store;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code import} reads no line longer than the store's largest checkpoint, and says what was already there. */
class ImportLimitsTest {
    private static final String HEADER =
            "{\"type\":\"header\",\"format\":\"agent-persistence-export\",\"version\":1}\n";

    @TempDir
    Path directory;

    /** A line of {@code length} characters after the header, generated as it is read; counts what was read. */
    private static final class EndlessLine extends Reader {
        private final long length;
        private long read;

        EndlessLine(long length) {
            this.length = length;
        }

        @Override
        public int read(char[] buffer, int offset, int count) {
            long total = HEADER.length() + length;
            if (read >= total) {
                return -1;
            }
            int n = (int) Math.min(count, total - read);
            for (int i = 0; i < n; i++) {
                long at = read + i;
                buffer[offset + i] = at < HEADER.length() ? HEADER.charAt((int) at) : 'x';
            }
            read += n;
            return n;
        }

        @Override
        public void close() {}
    }

    @Test
    void aLineLongerThanTheLargestCheckpointIsRefusedBeforeItIsReadWhole() {
        var line = new EndlessLine(64L << 20);
        var config = ProviderConfig.of(Map.of("agent.persistence.max-checkpoint-size", "1024"));
        try (Store store = Store.open("jdbc:sqlite:" + directory.resolve("target.db"), config)) {
            var progress = new Progress(new PrintWriter(new StringWriter()), false, System::nanoTime);
            assertThatThrownBy(() -> Importer.importFrom(line, "huge.jsonl", store, progress))
                    .isInstanceOf(CliException.class)
                    .hasMessageContaining("huge.jsonl line 2 is longer than")
                    .satisfies(e -> assertThat(((CliException) e).exitCode()).isEqualTo(ExitCode.USAGE));
        }
        assertThat(line.read)
                .as("characters read of a 64 Mi character line: bounded by the limit, not the line")
                .isLessThan(256 * 1024);
    }

    @Test
    void theCommandEndsWithExitTwoAndOneLine() throws Exception {
        Path file = directory.resolve("long.jsonl");
        Files.writeString(file, HEADER + "x".repeat(200_000) + "\n", StandardCharsets.UTF_8);
        var run = CliRun.of(
                "import",
                "--store",
                "jdbc:sqlite:" + directory.resolve("target.db"),
                "--set",
                "agent.persistence.max-checkpoint-size=1024",
                "--input",
                file.toString());
        assertThat(run.exitCode()).as("%s", run).isEqualTo(ExitCode.USAGE);
        assertThat(run.err().lines()).as("%s", run).hasSize(1);
        assertThat(run.err()).contains("line 2 is longer than 66560 characters");
    }

    @Test
    void aSecondImportSaysTheCheckpointsWereAlreadyThere() throws Exception {
        Path source = directory.resolve("source.db");
        try (var provider = StorageUri.parse("jdbc:sqlite:" + source.toAbsolutePath(), ProviderConfig.empty())
                .open()) {
            Fixtures.seed(provider);
        }
        Path export = directory.resolve("all.jsonl");
        assertThat(CliRun.of("export", "--store", "jdbc:sqlite:" + source, "-o", export.toString())
                        .exitCode())
                .isZero();
        String target = "jdbc:sqlite:" + directory.resolve("target.db");
        var first = CliRun.of("import", "--store", target, "--input", export.toString());
        assertThat(first.out()).as("%s", first).contains("imported 4 checkpoints of 2 agents", "(0 already there)");
        var second = CliRun.of("import", "--store", target, "--input", export.toString());
        assertThat(second.exitCode()).as("%s", second).isZero();
        assertThat(second.out()).contains("imported 0 checkpoints of 2 agents", "(4 already there)");
        var json = CliRun.of("import", "--store", target, "--input", export.toString(), "--json")
                .json();
        assertThat(json.get("imported").asLong()).isZero();
        assertThat(json.get("alreadyThere").asLong()).isEqualTo(4);
    }

    @Test
    void agentsShowsEachAgentsKind() throws Exception {
        Path file = directory.resolve("kinds.db");
        try (var provider = StorageUri.parse("jdbc:sqlite:" + file.toAbsolutePath(), ProviderConfig.empty())
                .open()) {
            Fixtures.seed(provider);
            var run = Fixtures.billing().toBuilder().agentId("@run/release-1").build();
            provider.saveCheckpoint(run.agentId(), run);
            var journal =
                    Fixtures.billing().toBuilder().agentId("@journal/release-1").build();
            provider.saveCheckpoint(journal.agentId(), journal);
        }
        var run = CliRun.of("agents", "--store", "jdbc:sqlite:" + file);
        assertThat(run.out().lines())
                .as("%s", run)
                .anySatisfy(line -> assertThat(line).startsWith("AGENT").contains("KIND"));
        assertThat(run.out().lines())
                .anySatisfy(line -> assertThat(line).matches("@run/release-1\\s+run\\s+1 .*"))
                .anySatisfy(line -> assertThat(line).matches("@journal/release-1\\s+journal\\s+1 .*"))
                .anySatisfy(line -> assertThat(line).matches("support\\s+plain\\s+3 .*"));
        var json =
                CliRun.of("agents", "--store", "jdbc:sqlite:" + file, "--json").json();
        assertThat(json.findValuesAsText("kind")).containsExactly("journal", "run", "plain", "plain");
    }
}
