package dev.agentpersistence.file;

import static dev.agentpersistence.file.TestCheckpoints.checkpoint;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.file.internal.FileNames;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Agents kept as a journal: any agent id, long histories, and threads of one provider saving at once. */
class JournalAgentsTest {
    @TempDir
    Path root;

    @Test
    void agentIdsThatAreHashedOrNotPlainNamesWorkAsJournals() {
        var agents = List.of("x".repeat(FileNames.MAX_PLAIN_LENGTH + 50), "ünïcødé/with:odd*chars", "..", "CON", "a b");
        try (var provider = FileStorage.builder(root).build()) {
            for (String agent : agents) {
                provider.saveCheckpoint(agent, checkpoint(agent, 0));
                provider.saveCheckpoint(agent, checkpoint(agent, 1));
            }
        }
        try (var journals = FileStorage.builder(root).build();
                var files = FilePerCheckpoint.provider(root)) {
            for (var provider : List.of(journals, files)) {
                assertThat(provider.listAgents()).containsExactlyInAnyOrderElementsOf(agents);
                for (String agent : agents) {
                    assertThat(JournalFiles.journal(root, agent)).exists();
                    assertThat(provider.getCheckpoints(agent))
                            .containsExactly(checkpoint(agent, 0), checkpoint(agent, 1));
                    assertThat(provider.getCheckpoint(agent, "cp-1")).contains(checkpoint(agent, 1));
                }
            }
            journals.deleteCheckpoints(agents.get(0));
            files.deleteCheckpointsBefore(agents.get(1), 1);
            assertThat(files.listAgents()).containsExactlyInAnyOrderElementsOf(agents.subList(1, agents.size()));
            assertThat(journals.getCheckpoints(agents.get(1))).containsExactly(checkpoint(agents.get(1), 1));
        }
    }

    @Test
    void longGrowingHistoriesRoundTripAndSurviveDeletions() {
        String agent = "talkative";
        var history = new ArrayList<Message>();
        var saved = new ArrayList<AgentCheckpoint>();
        try (var provider = FileStorage.builder(root).build()) {
            for (int version = 0; version < 40; version++) {
                for (int i = 0; i < 10; i++) {
                    history.add(Message.user("turn " + version + " message " + i + " " + "words ".repeat(20))
                            .withId("m-" + version + "-" + i));
                }
                var checkpoint = AgentCheckpoint.builder()
                        .checkpointId("cp-" + version)
                        .agentId(agent)
                        .version(version)
                        .createdAt(TestCheckpoints.T0.plusSeconds(version))
                        .nodeId("node-" + version)
                        .messageHistory(List.copyOf(history))
                        .build();
                provider.saveCheckpoint(agent, checkpoint);
                saved.add(checkpoint);
            }
            assertThat(provider.getCheckpoints(agent)).containsExactlyElementsOf(saved);
            assertThat(provider.deleteCheckpointsBefore(agent, 30)).isEqualTo(30);
            assertThat(provider.getCheckpoints(agent)).containsExactlyElementsOf(saved.subList(30, 40));
        }
        try (var fresh = FileStorage.builder(root).build()) {
            assertThat(fresh.getLatestCheckpoint(agent)).contains(saved.get(39));
            assertThat(fresh.getCheckpoint(agent, "cp-30")).contains(saved.get(30));
            assertThat(fresh.getCheckpoint(agent, "cp-29")).isEmpty();
        }
        assertThat(LayoutInspection.names(LayoutInspection.agentDirectory(root, agent)))
                .noneMatch(name -> name.endsWith(FileNames.CHECKPOINT_SUFFIX));
    }

    @Test
    void threadsOfOneProviderSavingAtOnceAppendEachCheckpointOnce() throws Exception {
        String agent = "busy";
        int threads = 8;
        int perThread = 25;
        try (var provider = FileStorage.builder(root).build()) {
            AllAtOnce.run(threads, first -> {
                for (int i = 0; i < perThread; i++) {
                    long version = first + (long) i * threads;
                    provider.saveCheckpoint(agent, checkpoint(agent, version));
                    if (i % 5 == 4) {
                        provider.getLatestCheckpoint(agent).orElseThrow();
                    }
                }
            });
            int count = threads * perThread;
            assertThat(provider.getCheckpoints(agent))
                    .extracting(AgentCheckpoint::version)
                    .containsExactlyElementsOf(
                            LongStream.range(0, count).boxed().toList());
            var records = JournalFiles.checkpoints(JournalFiles.journal(root, agent));
            assertThat(records).hasSize(count).allMatch(JournalFiles.Rec::intact);
        }
    }

    @Test
    void theLongestIdsInThreeByteCharactersRoundTrip() {
        String agent = "\u20ac".repeat(dev.agentpersistence.Identifiers.MAX_LENGTH);
        String id = "\u6f22".repeat(dev.agentpersistence.Identifiers.MAX_LENGTH);
        var stored = checkpoint(agent, 3, id, "test");
        try (var provider = FileStorage.builder(root).build()) {
            provider.saveCheckpoint(agent, checkpoint(agent, 1));
            provider.saveCheckpoint(agent, stored);
        }
        try (var provider = FileStorage.builder(root).build()) {
            assertThat(provider.getCheckpoint(agent, id)).contains(stored);
            assertThat(provider.getLatestCheckpoint(agent)).contains(stored);
            assertThat(provider.listAgents()).containsExactly(agent);
            provider.saveCheckpoint(agent, checkpoint(agent, 4));
            assertThat(provider.getCheckpoints(agent))
                    .extracting(AgentCheckpoint::version)
                    .containsExactly(1L, 3L, 4L);
        }
        var records = JournalFiles.checkpoints(JournalFiles.journal(root, agent));
        assertThat(records.get(1).checkpointId()).isEqualTo(id);
        assertThat(records).allMatch(JournalFiles.Rec::intact);
    }
}
