package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Tombstones are ordinary checkpoints that {@code includeTombstones=false} leaves out. */
abstract class TombstoneContract extends Contract {
    private static final CheckpointFilter NO_TOMBSTONES =
            CheckpointFilter.builder().includeTombstones(false).build();

    TombstoneContract(KitSession session) {
        super(session);
    }

    @Test
    @DisplayName("a tombstone is saved and read back as a tombstone, and can be the latest checkpoint")
    void tombstoneIsLatest() {
        String agent = agent("tombstone");
        var work = Checkpoints.full(agent, 0);
        var tombstone = AgentCheckpoint.tombstone(agent, 1, Checkpoints.createdAt(1));
        saveAll(agent, List.of(work, tombstone));
        assertThat(provider().getCheckpoints(agent)).containsExactly(work, tombstone);
        assertThat(provider().getLatestCheckpoint(agent)).contains(tombstone);
        assertThat(provider().getLatestCheckpoint(agent).orElseThrow().isTombstone())
                .isTrue();
    }

    @Test
    @DisplayName("includeTombstones=false skips tombstones in lists and in the latest")
    void excluded() {
        String agent = agent("tombstone-excluded");
        var work = Checkpoints.full(agent, 0);
        var tombstone = AgentCheckpoint.tombstone(agent, 1, Checkpoints.createdAt(1));
        saveAll(agent, List.of(work, tombstone));
        assertThat(provider().getCheckpoints(agent, NO_TOMBSTONES)).containsExactly(work);
        assertThat(provider().getLatestCheckpoint(agent, NO_TOMBSTONES)).contains(work);
        var onlyTombstone = agent("only-tombstone");
        provider().saveCheckpoint(onlyTombstone, AgentCheckpoint.tombstone(onlyTombstone, 0, Checkpoints.createdAt(0)));
        assertThat(provider().getLatestCheckpoint(onlyTombstone, NO_TOMBSTONES)).isEmpty();
        assertThat(provider().getCheckpoints(onlyTombstone, NO_TOMBSTONES)).isEmpty();
        assertThat(provider().getCheckpoints(onlyTombstone)).hasSize(1);
    }

    @Test
    @DisplayName("a checkpoint saved after a tombstone (a new run) becomes the latest")
    void newRunAfterTombstone() {
        String agent = agent("tombstone-new-run");
        var next = Checkpoints.simple(agent, 2);
        saveAll(
                agent,
                List.of(
                        Checkpoints.simple(agent, 0),
                        AgentCheckpoint.tombstone(agent, 1, Checkpoints.createdAt(1)),
                        next));
        assertThat(provider().getLatestCheckpoint(agent)).contains(next);
        assertThat(provider().getLatestCheckpoint(agent, NO_TOMBSTONES)).contains(next);
        assertThat(versions(agent, NO_TOMBSTONES)).containsExactly(0L, 2L);
    }
}
