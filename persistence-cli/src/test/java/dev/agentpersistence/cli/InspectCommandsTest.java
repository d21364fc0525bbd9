package dev.agentpersistence.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.cli.internal.Json;
import dev.agentpersistence.codec.CheckpointLocation;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code agents}, {@code list}, {@code show}, {@code diff}, {@code stats} over a seeded SQLite file. */
class InspectCommandsTest {
    @TempDir
    Path directory;

    private String store;

    @BeforeEach
    void seed() {
        Path file = directory.resolve("agents.db");
        try (var provider = StorageUri.parse("jdbc:sqlite:" + file.toAbsolutePath(), ProviderConfig.empty())
                .open()) {
            Fixtures.seed(provider);
        }
        store = "jdbc:sqlite:" + file;
    }

    @Test
    void agentsListsEveryAgentWithCountsSizesAndItsLatestCheckpoint() {
        var run = CliRun.of("agents", "--store", store);
        assertThat(run.exitCode()).as("%s", run).isZero();
        List<String> lines = run.out().lines().toList();
        assertThat(lines.get(0)).startsWith("AGENT").contains("CHECKPOINTS", "SIZE", "LATEST", "NODE", "CREATED");
        assertThat(lines.get(1)).startsWith("billing").contains(" 1 ", "invoice");
        assertThat(lines.get(2))
                .startsWith("support")
                .contains(" 3 ", " 2 ", "answer", "2026-03-02T10:15:30.123456789Z");

        var json = CliRun.of("agents", "--store", store, "--json").json();
        assertThat(json).hasSize(2);
        assertThat(json.get(1).get("agentId").asText()).isEqualTo("support");
        assertThat(json.get(1).get("checkpoints").asLong()).isEqualTo(3);
        assertThat(json.get(1).get("bytes").asLong()).isPositive();
        assertThat(json.get(1).get("latestVersion").asLong()).isEqualTo(2);
        assertThat(json.get(1).get("latestNodeId").asText()).isEqualTo("answer");
    }

    @Test
    void listShowsEveryCheckpointOldestFirstWithMessagesAndStoredSize() {
        var run = CliRun.of("list", "support", "--store", store);
        assertThat(run.exitCode()).as("%s", run).isZero();
        List<String> lines = run.out().lines().toList();
        assertThat(lines).hasSize(4);
        assertThat(lines.get(1))
                .matches("\\s*0  triage\\s+2026-03-01T10:15:30.123456789Z\\s+2\\s+\\d+(\\.\\d)? K?i?B\\s+support-cp-0");
        assertThat(lines.get(3)).contains("answer", " 5 ", "support-cp-2");

        var json = CliRun.of("list", "support", "--store", store, "--json").json();
        assertThat(json).hasSize(3);
        assertThat(json.get(1).get("version").asLong()).isEqualTo(1);
        assertThat(json.get(1).get("nodeId").asText()).isEqualTo("lookup");
        assertThat(json.get(1).get("messages").asInt()).isEqualTo(4);
        assertThat(json.get(1).get("bytes").asInt()).isPositive();

        var newest = CliRun.of("list", "support", "--limit", "1", "--store", store, "--json")
                .json();
        assertThat(newest).hasSize(1);
        assertThat(newest.get(0).get("version").asLong()).isEqualTo(2);
    }

    @Test
    void showRendersTheConversationWithEachToolCallFollowedByItsResult() {
        var run = CliRun.of("show", "support", "--store", store);
        assertThat(run.exitCode()).as("%s", run).isZero();
        assertThat(run.out())
                .contains(
                        "version  2",
                        "node     answer",
                        "parent   support-cp-1",
                        "meta     tenant = acme",
                        "state    resolved = true");
        List<String> lines = run.out().lines().toList();
        int call = indexOf(lines, "[2] tool call   lookup_order {\"order\":42}  (call call-1)");
        assertThat(lines.get(call + 1))
                .isEqualTo("  -> [3] tool result lookup_order (call call-1): shipped on March 2");
        assertThat(lines.get(call + 2)).isEqualTo("[4] assistant   Your order shipped on March 2.");

        assertThat(CliRun.of("show", "support", "0", "--store", store).out())
                .contains("version  0", "node     triage")
                .doesNotContain("tool call");
        assertThat(CliRun.of("show", "support", "support-cp-1", "--store", store)
                        .out())
                .contains("version  1");
    }

    @Test
    void showJsonPrintsTheStoredFormWhichReadsBackAsTheSameCheckpoint() {
        var run = CliRun.of("show", "support", "1", "--json", "--store", store);
        assertThat(run.exitCode()).as("%s", run).isZero();
        assertThat(run.json().get("formatVersion").asInt()).isEqualTo(2);
        AgentCheckpoint read = Json.checkpoint(run.json(), new CheckpointLocation("support", "support-cp-1", "test"));
        assertThat(read).isEqualTo(Fixtures.support().get(1));
    }

    @Test
    void diffNamesAddedMessagesTheNodeChangeAndStateKeys() {
        var run = CliRun.of("diff", "support", "0", "2", "--store", store);
        assertThat(run.exitCode()).as("%s", run).isZero();
        assertThat(run.out())
                .contains(
                        "version 0 -> 2",
                        "node: triage -> answer",
                        "messages: 3 added, 0 removed",
                        "  + [2] tool call   lookup_order",
                        "  + [4] assistant   Your order shipped on March 2.",
                        "state: added resolved, removed ticket, changed mood");

        var json = CliRun.of("diff", "support", "support-cp-1", "2", "--json", "--store", store)
                .json();
        assertThat(json.get("nodeChanged").asBoolean()).isTrue();
        assertThat(json.get("messagesAdded")).hasSize(1);
        assertThat(json.get("messagesAdded").get(0).get("message").get("id").asText())
                .isEqualTo("m-answer");
        assertThat(json.get("state").get("added").get(0).asText()).isEqualTo("resolved");
        assertThat(json.get("state").get("removed").get(0).asText()).isEqualTo("ticket");
        assertThat(json.get("state").get("changed")).isEmpty();
        assertThat(json.get("metadataChanged")).isEmpty();
    }

    @Test
    void statsCountsCheckpointsAndBytesPerAgentAndPerDay() {
        var json = CliRun.of("stats", "--json", "--store", store).json();
        assertThat(json.get("checkpoints").asLong()).isEqualTo(4);
        assertThat(json.get("agents").get(1).get("checkpoints").asLong()).isEqualTo(3);
        assertThat(json.get("agents").get(1).get("firstCreatedAt").asText())
                .isEqualTo("2026-03-01T10:15:30.123456789Z");
        long agentBytes = json.get("agents").get(0).get("bytes").asLong()
                + json.get("agents").get(1).get("bytes").asLong();
        assertThat(json.get("bytes").asLong()).isEqualTo(agentBytes).isPositive();
        assertThat(json.get("days")).hasSize(2);
        assertThat(json.get("days").get(0).get("day").asText()).isEqualTo("2026-03-01");
        assertThat(json.get("days").get(0).get("checkpoints").asLong()).isEqualTo(3);
        assertThat(json.get("days").get(1).get("checkpoints").asLong()).isEqualTo(1);

        var run = CliRun.of("stats", "--store", store);
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("AGENT", "support", "DAY", "2026-03-01", "2026-03-02");
    }

    @Test
    void sweepIsADryRunUntilApplied() throws Exception {
        var dry = CliRun.of("sweep", "--keep-latest", "1", "--store", store);
        assertThat(dry.exitCode()).as("%s", dry).isZero();
        assertThat(dry.out()).contains("would delete 2 checkpoints", "--apply");
        assertThat(CliRun.of("sweep", "--keep-latest", "1", "--json", "--store", store)
                        .json()
                        .get("agents")
                        .get(1)
                        .get("belowVersion")
                        .asLong())
                .isEqualTo(2);
        assertThat(versions("support")).containsExactly(0L, 1L, 2L);

        var applied = CliRun.of("sweep", "--keep-latest", "1", "--apply", "--store", store);
        assertThat(applied.exitCode()).as("%s", applied).isZero();
        assertThat(applied.out()).contains("deleted 2 checkpoints");
        assertThat(versions("support")).containsExactly(2L);

        var noPolicy = CliRun.of("sweep", "--store", store);
        assertThat(noPolicy.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(noPolicy.err()).contains("--keep-latest");
    }

    @Test
    void verifyReportsEachCorruptCheckpointByLocationAndFails() throws Exception {
        var clean = CliRun.of("verify", "--store", store);
        assertThat(clean.exitCode()).as("%s", clean).isZero();
        assertThat(clean.out()).contains("2 agents, 4 checkpoints readable, 0 unreadable");

        try (var connection = DriverManager.getConnection(store);
                var update = connection.prepareStatement(
                        "UPDATE agent_checkpoints SET payload = ? WHERE checkpoint_id = ?")) {
            update.setBytes(
                    1, "{\"formatVersion\":2,\"not\":\"a checkpoint".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            update.setString(2, "support-cp-1");
            assertThat(update.executeUpdate()).isEqualTo(1);
        }
        var run = CliRun.of("verify", "--store", store);
        assertThat(run.exitCode()).as("%s", run).isEqualTo(ExitCode.PROBLEMS_FOUND);
        assertThat(run.out()).contains("3 checkpoints readable, 1 unreadable");
        String row = run.out()
                .lines()
                .filter(line -> line.startsWith("support"))
                .findFirst()
                .orElseThrow();
        assertThat(row).contains(" 1 ", "support-cp-1", "agent_checkpoints");

        var json = CliRun.of("verify", "--json", "--store", store).json();
        assertThat(json.get("unreadable")).hasSize(1);
        assertThat(json.get("unreadable").get(0).get("version").asLong()).isEqualTo(1);
        assertThat(json.get("unreadable").get(0).get("location").asText()).contains("agent_checkpoints");
    }

    private List<Long> versions(String agentId) {
        var versions = new ArrayList<Long>();
        CliRun.of("list", agentId, "--json", "--store", store)
                .json()
                .forEach(row -> versions.add(row.get("version").asLong()));
        return versions;
    }

    private static int indexOf(List<String> lines, String line) {
        assertThat(lines).contains(line);
        return lines.indexOf(line);
    }
}
