package dev.agentpersistence.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.ToolCall;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stored text is untrusted: node ids, metadata, messages and tool names holding terminal control sequences
 * (ESC/CSI/OSC, BEL, backspace, CR, C1) never reach the terminal raw from {@code agents}, {@code list}, {@code show},
 * {@code diff} or an error message; they are shown escaped.
 */
class UntrustedTextTest {
    private static final String ESC = "\u001b";
    private static final String HOSTILE =
            ESC + "]0;owned" + "\u0007" + ESC + "[2J" + "\b\b\rok" + "\u009b31m" + "\u202e";

    @TempDir
    Path directory;

    private String seed() {
        Path file = directory.resolve("hostile.db");
        var nodes = JsonNodeFactory.instance;
        var v0 = AgentCheckpoint.builder()
                .checkpointId("cp-0")
                .agentId("agent-1")
                .version(0)
                .createdAt(Fixtures.T0)
                .nodeId("node" + HOSTILE)
                .messageHistory(List.of(
                        new Message("m-1", Message.Role.USER, "hi" + HOSTILE, null, null, Map.of()),
                        new Message(
                                "m-2",
                                Message.Role.TOOL_CALL,
                                "",
                                null,
                                new ToolCall("call" + HOSTILE, "tool" + HOSTILE, nodes.objectNode()),
                                Map.of())))
                .state("step", nodes.textNode("one" + HOSTILE))
                .metadata("tenant" + HOSTILE, "acme" + HOSTILE)
                .build();
        var v1 = v0.toBuilder()
                .checkpointId("cp-1")
                .version(1)
                .nodeId("next" + HOSTILE)
                .state("step", nodes.textNode("two" + HOSTILE))
                .metadata("tenant" + HOSTILE, "other" + HOSTILE)
                .build();
        try (var provider = StorageUri.parse("jdbc:sqlite:" + file.toAbsolutePath(), ProviderConfig.empty())
                .open()) {
            provider.saveCheckpoint(v0.agentId(), v0);
            provider.saveCheckpoint(v1.agentId(), v1);
        }
        return "jdbc:sqlite:" + file;
    }

    @Test
    void everyCommandShowsStoredControlCharactersEscaped() {
        String store = seed();
        String agent = "agent-1";
        for (var run : List.of(
                CliRun.of("agents", "--store", store),
                CliRun.of("list", agent, "--store", store),
                CliRun.of("show", agent, "0", "--store", store),
                CliRun.of("diff", agent, "0", "1", "--store", store))) {
            String printed = run.out() + run.err();
            assertThat(printed).as("%s", run).contains("\\u001b]0;owned\\u0007\\u001b[2J\\u0008\\u0008");
            assertThat(printed.chars().filter(c -> c != '\n' && Character.getType(c) == Character.CONTROL))
                    .as("raw control characters in %s", run)
                    .isEmpty();
            assertThat(printed).as("%s", run).doesNotContain("\u202e");
        }
    }

    @Test
    void showEscapesMessagesToolNamesMetadataAndState() {
        String store = seed();
        var run = CliRun.of("show", "agent-1", "0", "--store", store);
        assertThat(run.exitCode()).as("%s", run).isZero();
        assertThat(run.out())
                .contains("hi\\u001b]0;owned", "tool\\u001b]0;owned", "tenant\\u001b]0;owned")
                .contains("acme\\u001b]0;owned", "\\rok\\u009b31m\\u202e");
    }

    @Test
    void diffPrintsTheOldAndTheNewValueOfEachChangedStateAndMetadataKey() {
        String store = seed();
        var run = CliRun.of("diff", "agent-1", "0", "1", "--store", store);
        assertThat(run.exitCode()).as("%s", run).isZero();
        assertThat(run.out())
                .contains("changed step")
                .containsIgnoringCase("~ step: \"one\\u001b]0;owned")
                .containsIgnoringCase("-> \"two\\u001b]0;owned")
                .contains(": acme\\u001b]0;owned")
                .contains("-> other\\u001b]0;owned");

        var json = CliRun.of("diff", "agent-1", "0", "1", "--json", "--store", store)
                .json();
        assertThat(json.at("/state/changes/step/from").asText()).isEqualTo("one" + HOSTILE);
        assertThat(json.at("/state/changes/step/to").asText()).isEqualTo("two" + HOSTILE);
        assertThat(json.at("/metadataChanges/tenant"
                                + HOSTILE.replace("~", "~0").replace("/", "~1") + "/to")
                        .asText())
                .isEqualTo("other" + HOSTILE);
    }

    @Test
    void anImportErrorNamingAHostileFileShowsItEscaped() throws Exception {
        Path file = directory.resolve("export" + "\u001b[31m" + ".jsonl");
        Files.writeString(file, "not json " + ESC + "]0;x\u0007\n", StandardCharsets.UTF_8);
        var run =
                CliRun.of("import", "--store", "jdbc:sqlite:" + directory.resolve("t.db"), "--input", file.toString());
        assertThat(run.exitCode()).as("%s", run).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).contains("export\\u001b[31m.jsonl line 1");
        assertThat(run.err().chars().filter(c -> c != '\n' && Character.getType(c) == Character.CONTROL))
                .isEmpty();
    }
}
