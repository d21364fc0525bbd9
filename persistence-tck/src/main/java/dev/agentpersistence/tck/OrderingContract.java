package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Lists are in ascending version order, whatever the save order and the creation times. */
abstract class OrderingContract extends Contract {

    OrderingContract(KitSession session) {
        super(session);
    }

    @Test
    @DisplayName("getCheckpoints lists ascending by version whatever the save order")
    void ascendingWhateverSaveOrder() {
        String agent = agent("order");
        var checkpoints = new ArrayList<AgentCheckpoint>();
        for (int v = 0; v < 30; v++) {
            checkpoints.add(Checkpoints.simple(agent, v));
        }
        var shuffled = new ArrayList<>(checkpoints);
        Collections.shuffle(shuffled, new Random(42));
        saveAll(agent, shuffled);
        assertThat(provider().getCheckpoints(agent)).containsExactlyElementsOf(checkpoints);
    }

    @Test
    @DisplayName("the order follows versions, not creation times")
    void versionsNotTimes() {
        String agent = agent("order-times");
        var checkpoints = new ArrayList<AgentCheckpoint>();
        for (int v = 0; v < 10; v++) {
            checkpoints.add(Checkpoints.builder(agent, v)
                    .createdAt(Checkpoints.createdAt(100 - v))
                    .build());
        }
        saveAll(agent, checkpoints);
        assertThat(versions(agent, null)).containsExactlyElementsOf(range(0, 10));
        assertThat(provider().getLatestCheckpoint(agent))
                .map(AgentCheckpoint::version)
                .contains(9L);
    }

    @Test
    @DisplayName("versions order as numbers, not as text (9 < 10 < 100), including versions beyond int range")
    void numericOrder() {
        String agent = agent("order-numeric");
        var versions =
                List.of(100L, 9L, 10L, 2L, 1_000L, 11L, 1L, 4_294_967_297L, 2_147_483_648L, 1L << 40, 1L << 53, 0L);
        for (long v : versions) {
            provider().saveCheckpoint(agent, Checkpoints.simple(agent, v));
        }
        assertThat(versions(agent, null))
                .containsExactly(
                        0L, 1L, 2L, 9L, 10L, 11L, 100L, 1_000L, 2_147_483_648L, 4_294_967_297L, 1L << 40, 1L << 53);
        assertThat(provider().getLatestCheckpoint(agent))
                .map(AgentCheckpoint::version)
                .contains(1L << 53);
    }

    @Test
    @DisplayName("a returned list is a snapshot: later saves do not change it, and changing it does not change storage")
    void snapshots() {
        String agent = agent("order-snapshot");
        var first = Checkpoints.simple(agent, 0);
        provider().saveCheckpoint(agent, first);
        var listed = provider().getCheckpoints(agent);
        var limited = provider()
                .getCheckpoints(agent, CheckpointFilter.builder().limit(5).build());
        provider().saveCheckpoint(agent, Checkpoints.simple(agent, 1));
        assertThat(listed).containsExactly(first);
        assertThat(limited).containsExactly(first);
        try {
            listed.clear();
        } catch (UnsupportedOperationException unmodifiable) {
            // an unmodifiable list is fine too
        }
        assertThat(provider().getCheckpoints(agent)).containsExactly(first, Checkpoints.simple(agent, 1));
    }

    @Test
    @DisplayName("versions need not be contiguous")
    void gaps() {
        String agent = agent("order-gaps");
        saveAll(
                agent,
                List.of(Checkpoints.simple(agent, 5), Checkpoints.simple(agent, 50), Checkpoints.simple(agent, 7)));
        assertThat(versions(agent, null)).containsExactly(5L, 7L, 50L);
    }
}
