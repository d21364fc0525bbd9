package dev.agentpersistence.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.cli.internal.ExportFormat;
import dev.agentpersistence.cli.internal.Json;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import dev.agentpersistence.tck.TestServices;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code export}, {@code import} and {@code copy}: a round trip SQLite → PostgreSQL → Redis, filters, damaged files.
 */
class ExportImportCopyTest {
    private static final String RUN = Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36);
    private static final Path SCHEMA = Path.of("..", "docs", "export-format.schema.json");

    @TempDir
    Path directory;

    private String sqlite() {
        Path file = directory.resolve("source.db");
        try (var provider = StorageUri.parse("jdbc:sqlite:" + file.toAbsolutePath(), ProviderConfig.empty())
                .open()) {
            Fixtures.seed(provider);
        }
        return "jdbc:sqlite:" + file;
    }

    @Test
    void aRoundTripSqliteToPostgresqlToRedisKeepsEveryCheckpointExactly() throws IOException {
        String sqlite = sqlite();
        Path export = directory.resolve("all.jsonl");
        var exported = CliRun.of("export", "--store", sqlite, "--output", export.toString());
        assertThat(exported.exitCode()).as("%s", exported).isZero();
        assertThat(exported.out()).contains("exported 4 checkpoints of 2 agents");

        String postgres = TestServices.postgresUrl(null);
        String pgPrefix = "agent.persistence.jdbc.table-prefix=cli_rt_" + RUN + "_";
        String redis = TestServices.redisUri(null);
        String redisPrefix = "agent.persistence.redis.key-prefix=agent-persistence-cli-rt:" + RUN + ":";
        try {
            var imported = CliRun.of("import", "--store", postgres, "--set", pgPrefix, "--input", export.toString());
            assertThat(imported.exitCode()).as("%s", imported).isZero();
            assertThat(imported.out()).contains("imported 4 checkpoints of 2 agents");
            var again = CliRun.of("import", "--store", postgres, "--set", pgPrefix, "--input", export.toString());
            assertThat(again.exitCode())
                    .as("importing again changes nothing: %s", again)
                    .isZero();

            var copied = CliRun.of(
                    "copy", "--from", postgres, "--from-set", pgPrefix, "--to", redis, "--to-set", redisPrefix);
            assertThat(copied.exitCode()).as("%s", copied).isZero();
            assertThat(copied.out()).contains("copied 4 checkpoints of 2 agents", "(0 already there)", "verified");
            assertThat(copied.err()).contains("4 checkpoints").doesNotContain("ETA");

            Path back = directory.resolve("back.jsonl");
            assertThat(CliRun.of("export", "--store", redis, "--set", redisPrefix, "-o", back.toString())
                            .exitCode())
                    .isZero();
            assertThat(checkpointLines(back)).isEqualTo(checkpointLines(export));
            try (var provider = open(redis, redisPrefix)) {
                assertThat(provider.getCheckpoints("support")).containsExactlyElementsOf(Fixtures.support());
                assertThat(provider.getCheckpoints("billing")).containsExactly(Fixtures.billing());
            }
        } finally {
            clean(postgres, pgPrefix);
            clean(redis, redisPrefix);
        }
    }

    @Test
    void theExportFileHasTheDocumentedShape() throws IOException {
        var run = CliRun.of("export", "--store", sqlite());
        assertThat(run.exitCode()).as("%s", run).isZero();
        List<JsonNode> lines = new ArrayList<>();
        for (String line : run.out().lines().toList()) {
            lines.add(Json.MAPPER.readTree(line));
        }
        assertThat(lines).hasSize(6);
        JsonNode schema = Json.MAPPER.readTree(SCHEMA.toFile());
        assertThat(schema.at("/$defs/header/properties/version/const").asInt()).isEqualTo(ExportFormat.VERSION);
        assertThat(schema.at("/$defs/header/properties/format/const").asText()).isEqualTo(ExportFormat.FORMAT);
        assertShape(lines.get(0), schema.at("/$defs/header"));
        assertShape(lines.get(0).get("selection"), schema.at("/$defs/header/properties/selection"));
        for (JsonNode line : lines.subList(1, 5)) {
            assertShape(line, schema.at("/$defs/checkpointLine"));
            assertShape(line.get("checkpoint"), schema.at("/$defs/checkpoint"));
        }
        assertShape(lines.get(5), schema.at("/$defs/end"));
        assertThat(lines.get(5).get("sha256").asText())
                .matches(schema.at("/$defs/end/properties/sha256/pattern").asText());
        assertThat(lines.subList(1, 5))
                .extracting(line -> line.at("/checkpoint/checkpointId").asText())
                .containsExactly("billing-cp-0", "support-cp-2", "support-cp-1", "support-cp-0");
    }

    @Test
    void exportFiltersByAgentAndTime() {
        String sqlite = sqlite();
        var oneAgent = CliRun.of("export", "--store", sqlite, "--agent", "billing");
        assertThat(oneAgent.out().lines().filter(line -> line.contains("\"type\":\"checkpoint\"")))
                .hasSize(1);
        var window = CliRun.of(
                "export",
                "--store",
                sqlite,
                "--since",
                "2026-03-01T10:15:30.123456789Z",
                "--until",
                "2026-03-01T10:17:00Z");
        assertThat(window.exitCode()).as("%s", window).isZero();
        assertThat(window.out()
                        .lines()
                        .filter(line -> line.contains("\"type\":\"checkpoint\""))
                        .toList())
                .hasSize(3)
                .noneMatch(line -> line.contains("support-cp-2"));
        assertThat(window.out().lines().findFirst().orElseThrow())
                .contains("\"since\":\"2026-03-01T10:15:30.123456789Z\"");
        var bad = CliRun.of("export", "--store", sqlite, "--since", "yesterday");
        assertThat(bad.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(bad.err()).contains("--since 'yesterday'");
    }

    @Test
    void aDamagedFileIsReportedAndWhatCameBeforeIsImported() throws IOException {
        Path export = directory.resolve("all.jsonl");
        assertThat(CliRun.of("export", "--store", sqlite(), "-o", export.toString())
                        .exitCode())
                .isZero();
        List<String> lines = Files.readAllLines(export);
        String target = "jdbc:sqlite:" + directory.resolve("target.db");

        Path truncated = directory.resolve("truncated.jsonl");
        Files.write(truncated, lines.subList(0, 3));
        var run = CliRun.of("import", "--store", target, "-i", truncated.toString());
        assertThat(run.exitCode()).as("%s", run).isEqualTo(ExitCode.PROBLEMS_FOUND);
        assertThat(run.err()).contains("ends without its end line", "2 checkpoints read were imported");
        assertThat(CliRun.of("agents", "--store", target, "--json").json()).hasSize(2);

        Path altered = directory.resolve("altered.jsonl");
        var changed = new ArrayList<>(lines);
        changed.set(2, changed.get(2).replace("Your order shipped", "Your order was lost"));
        Files.write(altered, changed);
        var alteredRun = CliRun.of(
                "import", "--store", "jdbc:sqlite:" + directory.resolve("other.db"), "-i", altered.toString());
        assertThat(alteredRun.exitCode()).isEqualTo(ExitCode.PROBLEMS_FOUND);
        assertThat(alteredRun.err()).contains("do not match the SHA-256");

        Path newer = directory.resolve("newer.jsonl");
        Files.writeString(newer, lines.get(0).replace("\"version\":1", "\"version\":9") + "\n");
        var newerRun = CliRun.of("import", "--store", target, "-i", newer.toString());
        assertThat(newerRun.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(newerRun.err()).contains("export format version 9");

        var conflict = CliRun.of("import", "--store", target, "-i", altered.toString());
        assertThat(conflict.exitCode()).as("%s", conflict).isEqualTo(ExitCode.CONFLICT);
    }

    private static void assertShape(JsonNode node, JsonNode schema) {
        List<String> declared = new ArrayList<>();
        schema.get("properties").fieldNames().forEachRemaining(declared::add);
        List<String> present = new ArrayList<>();
        node.fieldNames().forEachRemaining(present::add);
        assertThat(declared).as("fields of %s", node).containsAll(present);
        for (Iterator<JsonNode> required = schema.get("required").elements(); required.hasNext(); ) {
            assertThat(node.has(required.next().asText()))
                    .as("required fields of %s", node)
                    .isTrue();
        }
    }

    private static List<String> checkpointLines(Path file) throws IOException {
        return Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                .filter(line -> line.contains("\"type\":\"checkpoint\""))
                .toList();
    }

    private static PersistenceStorageProvider<CheckpointFilter> open(String uri, String setting) {
        int eq = setting.indexOf('=');
        return StorageUri.parse(uri, ProviderConfig.of(Map.of(setting.substring(0, eq), setting.substring(eq + 1))))
                .open();
    }

    private static void clean(String uri, String setting) {
        try (var provider = open(uri, setting)) {
            provider.listAgents().forEach(provider::deleteCheckpoints);
        }
    }
}
