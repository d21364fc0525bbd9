package dev.agentpersistence.storage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shell gives messages saved without an id a stable id of their own, over inline and segmented histories. */
class DerivedMessageIdsTest {
    @Test
    void messagesSavedWithoutIdsReadBackWithStableDistinctIdsAndEqualToWhatWasSaved() {
        try (var shell = MapBackend.shell(Clock.systemUTC()).build()) {
            var history = new ArrayList<Message>();
            for (int version = 0; version < 40; version++) {
                history.add(Message.user("same"));
                history.add(Message.assistant("reply " + (version % 3)));
                var checkpoint = AgentCheckpoint.builder()
                        .checkpointId("cp-" + version)
                        .agentId("a")
                        .version(version)
                        .createdAt(Instant.parse("2026-01-01T00:00:00Z").plusSeconds(version))
                        .messageHistory(history)
                        .build();
                shell.saveCheckpoint("a", checkpoint);
                assertThat(shell.getLatestCheckpoint("a")).contains(checkpoint);
            }
            List<Message> read = shell.getLatestCheckpoint("a").orElseThrow().messageHistory();

            assertThat(read)
                    .hasSize(80)
                    .allSatisfy(message -> assertThat(message.hasDerivedId()).isTrue());
            assertThat(read).extracting(Message::id).doesNotHaveDuplicates();
            assertThat(shell.getCheckpoints("a").get(39).messageHistory())
                    .extracting(Message::id)
                    .as("the same ids on every read path")
                    .containsExactlyElementsOf(read.stream().map(Message::id).toList());
            assertThat(shell.getCheckpoints("a").get(10).messageHistory())
                    .extracting(Message::id)
                    .as("an older checkpoint sharing the first messages gives them the same ids")
                    .containsExactlyElementsOf(
                            read.subList(0, 22).stream().map(Message::id).toList());
        }
    }
}
