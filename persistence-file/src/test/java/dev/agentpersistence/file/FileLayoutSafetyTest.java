package dev.agentpersistence.file;

import static dev.agentpersistence.file.TestCheckpoints.checkpoint;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.file.internal.FileNames;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Hostile ids are stored and found exactly, and nothing they name ends up outside the root. */
class FileLayoutSafetyTest {
    static final List<String> HOSTILE = List.of(
            "../../etc/passwd",
            "..",
            ".",
            "a/b",
            "/absolute",
            "a\\b",
            "C:\\Windows\\win.ini",
            "'; DROP TABLE x;--",
            "%2F",
            "%",
            "*",
            "?",
            "{tag}",
            "~",
            "with spaces",
            "trailing.",
            ".hidden",
            ".ids",
            ".agent-id",
            ".tmp-1",
            "CON",
            "nul",
            "🙂 emoji 👩‍👩‍👧",
            "日本語のエージェント",
            "Agent",
            "agent",
            "\u00E9",
            "e\u0301",
            "0000000000000000000.checkpoint",
            "m".repeat(256),
            "🙂".repeat(128));

    @TempDir
    Path sandbox;

    @ParameterizedTest(name = "journal: {0}")
    @ValueSource(booleans = {true, false})
    void hostileIdsStayInsideTheRootAndRoundTrip(boolean journal) throws Exception {
        Path root = sandbox.resolve("store");
        try (var provider = FileStorage.builder(
                        FilePerCheckpoint.config(root).journal(journal).build())
                .build()) {
            var saved = new ArrayList<AgentCheckpoint>();
            for (String agentId : HOSTILE) {
                for (int i = 0; i < HOSTILE.size(); i += 7) {
                    var checkpoint = checkpoint(agentId, i, HOSTILE.get(i), "test");
                    provider.saveCheckpoint(agentId, checkpoint);
                    saved.add(checkpoint);
                }
            }

            assertThat(provider.listAgents()).containsExactlyElementsOf(new TreeSet<>(HOSTILE));
            for (var checkpoint : saved) {
                assertThat(provider.getCheckpoint(checkpoint.agentId(), checkpoint.checkpointId()))
                        .contains(checkpoint);
            }
            for (String agentId : HOSTILE) {
                assertThat(provider.getCheckpoints(agentId))
                        .allSatisfy(c -> assertThat(c.agentId()).isEqualTo(agentId))
                        .hasSize((HOSTILE.size() + 6) / 7);
            }
        }

        assertThat(LayoutInspection.names(sandbox)).containsExactly("store");
        for (Path path : LayoutInspection.tree(root)) {
            assertThat(Files.isSymbolicLink(path)).isFalse();
            if (path.equals(root)) {
                continue;
            }
            Path relative = root.relativize(path);
            assertThat(relative.getNameCount()).as("%s", relative).isBetween(1, 3);
            String name = path.getFileName().toString();
            assertThat(name.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(255);
            assertThat(name).as("%s", relative).matches("[A-Za-z0-9_%~.-]+");
            if (relative.getNameCount() == 1) {
                assertThat(Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)).isTrue();
                assertThat(name).doesNotStartWith(".");
            }
        }
        var folded = new TreeSet<String>();
        for (String name : LayoutInspection.names(root)) {
            assertThat(folded.add(name.toLowerCase(Locale.ROOT)))
                    .as("case-insensitive collision on %s", name)
                    .isTrue();
        }
    }

    @Test
    void aTooLongAgentIdKeepsItsRealIdInsideItsDirectory() throws Exception {
        String agentId = "🙂".repeat(128);
        try (var provider = FileStorage.builder(sandbox).build()) {
            provider.saveCheckpoint(agentId, checkpoint(agentId, 0));
            Path directory = LayoutInspection.agentDirectory(sandbox, agentId);
            assertThat(FileNames.isHashed(directory.getFileName().toString())).isTrue();
            assertThat(Files.readString(directory.resolve(FileNames.AGENT_ID_FILE)))
                    .isEqualTo(agentId);
            assertThat(provider.listAgents()).containsExactly(agentId);
        }
    }

    @Test
    void theJournalLayoutIsOneDirectoryPerAgentHoldingOneFile() throws Exception {
        try (var provider = FileStorage.builder(sandbox).build()) {
            provider.saveCheckpoint("Agent/1", checkpoint("Agent/1", 0, "First", "test"));
            provider.saveCheckpoint("Agent/1", checkpoint("Agent/1", 12, "Second", "test"));
        }
        assertThat(LayoutInspection.names(sandbox)).containsExactly("%41gent%2F1");
        assertThat(LayoutInspection.names(sandbox.resolve("%41gent%2F1"))).containsExactly(".head.lock", ".journal");
    }

    @Test
    void theFileLayoutIsOneDirectoryPerAgentAndOneVersionNamedFilePerCheckpoint() throws Exception {
        try (var provider = FilePerCheckpoint.provider(sandbox)) {
            provider.saveCheckpoint("Agent/1", checkpoint("Agent/1", 0, "First", "test"));
            provider.saveCheckpoint("Agent/1", checkpoint("Agent/1", 12, "Second", "test"));
        }
        Path directory = sandbox.resolve("%41gent%2F1");
        assertThat(LayoutInspection.names(sandbox)).containsExactly("%41gent%2F1");
        assertThat(LayoutInspection.names(directory))
                .containsExactly(
                        ".head",
                        ".head.lock",
                        ".ids",
                        "0000000000000000000.checkpoint",
                        "0000000000000000012.checkpoint");
        assertThat(LayoutInspection.names(directory.resolve(".ids"))).containsExactly("%46irst", "%53econd");
        assertThat(Files.isSameFile(
                        directory.resolve(".ids/%53econd"), directory.resolve("0000000000000000012.checkpoint")))
                .isTrue();
    }

    @Test
    void emptyAgentDirectoriesAndForeignEntriesAreNotAgents() throws Exception {
        try (var provider = FileStorage.builder(sandbox).build()) {
            provider.saveCheckpoint("kept", checkpoint("kept", 0));
            provider.saveCheckpoint("emptied", checkpoint("emptied", 0));
            provider.deleteCheckpoints("emptied");
            Files.createDirectory(sandbox.resolve("Not-An-Encoded-Name"));
            Files.writeString(sandbox.resolve("Not-An-Encoded-Name").resolve("0000000000000000000.checkpoint"), "x");
            Files.writeString(sandbox.resolve("stray-file"), "x");
            assertThat(provider.listAgents()).containsExactly("kept");
        }
    }
}
