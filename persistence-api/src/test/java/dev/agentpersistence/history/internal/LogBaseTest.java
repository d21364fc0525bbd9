package dev.agentpersistence.history.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.codec.LayeredCheckpointCodec;
import dev.agentpersistence.storage.MapBackend;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The descriptor of a fork's history: its stored forms, their checks, and bases a reader refuses. */
class LogBaseTest {
    private static final LogEntryId BASE = LogEntryId.of(0, 40, ChainHasher.origin(), new byte[32]);
    private static final LogEntryId LAST = new LogEntryId(40, 42, "ab".repeat(16), "00".repeat(8));

    @Test
    void aHistoryWithoutBasesKeepsFormat2ToTheByte() {
        var descriptor = new LogDescriptor(40, BASE);

        assertThat(descriptor.toJson()).isEqualTo("{\"format\":2,\"size\":40,\"log\":\"" + BASE.text() + "\"}");
        assertThat(HistoryReference.parse(descriptor.toJson())).isEqualTo(descriptor);
    }

    @Test
    void aForksDescriptorIsFormat3AndReadsBackWithItsBases() {
        var descriptor = new LogDescriptor(42, LAST, List.of(new LogBase("parent \"quoted\"", BASE)));

        assertThat(descriptor.toJson()).startsWith("{\"format\":3,");
        assertThat(HistoryReference.parse(descriptor.toJson())).isEqualTo(descriptor);
    }

    @Test
    void basesOutOfOrderOrPastTheHistoryAreRefused() {
        assertThatThrownBy(() -> new LogDescriptor(40, BASE, List.of(new LogBase("p", LAST))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("in order");
        assertThatThrownBy(() -> new LogDescriptor(42, LAST, List.of(new LogBase("p", LAST), new LogBase("q", BASE))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HistoryReference.parse("{\"format\":3,\"size\":42,\"log\":\"" + LAST.text() + "\"}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("names no bases");
        assertThatThrownBy(() -> HistoryReference.parse("{\"format\":4,\"size\":1}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("upgrade agent-persistence");
    }

    @Test
    void aBaseInAnotherNamespaceOrTheAgentItselfIsACorruptCheckpoint() {
        var backend = new MapBackend(Clock.systemUTC());
        var reader = new HistoryReader(
                backend.segments().orElseThrow(),
                new ChainCache(4, 1_000),
                new SegmentCodec(LayeredCheckpointCodec.custom().build()),
                new ChainHasher(),
                ReservedMetadata.DESCRIPTOR_KEY,
                "test store");
        for (String base : List.of("@journal/parent", "child")) {
            var stored = AgentCheckpoint.builder()
                    .checkpointId("cp")
                    .agentId("child")
                    .version(0)
                    .createdAt(Instant.EPOCH)
                    .metadata(
                            ReservedMetadata.DESCRIPTOR_KEY,
                            new LogDescriptor(40, BASE, List.of(new LogBase(base, BASE))).toJson())
                    .build();

            assertThatThrownBy(() -> reader.assemble("child", List.of(stored)))
                    .isInstanceOf(CorruptCheckpointException.class)
                    .hasMessageContaining("not another agent of its own namespace");
        }
    }
}
