package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentAlreadyExistsException;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.CheckpointNotFoundException;
import dev.agentpersistence.ForkOrigin;
import dev.agentpersistence.SimpleAgentContext;
import dev.agentpersistence.history.RetentionPolicy;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@link AgentPersistence#fork} and {@link AgentPersistence#lineage} over the provider: a fork is a new agent whose
 * first checkpoint copies the chosen one and records its origin; the parent is left as it was; lineage is read back,
 * also by another provider instance. Fork and lineage look checkpoints up by id, so a provider without
 * {@code getCheckpoint} aborts this group.
 */
abstract class ForkContract extends Contract {
    private static final Instant FORKED_AT = Instant.parse("2026-04-01T08:00:00.123456789Z");

    ForkContract(KitSession session) {
        super(session);
    }

    private AgentPersistence persistence() {
        return AgentPersistence.builder()
                .storage(provider())
                .clock(Clock.fixed(FORKED_AT, ZoneOffset.UTC))
                .build();
    }

    private <T> T lookingUp(Supplier<T> call) {
        return optional("getCheckpoint", call);
    }

    @Test
    @DisplayName(
            "a fork's first checkpoint is version 0 of the new agent, equal in content to the chosen one, with its "
                    + "origin in metadata")
    void forkCopiesTheChosenCheckpoint() {
        String parent = agent("fork-parent");
        String child = agent("fork-child");
        var chosen = Checkpoints.full(parent, 1);
        saveAll(parent, List.of(Checkpoints.simple(parent, 0), chosen, Checkpoints.simple(parent, 2)));

        AgentCheckpoint first = lookingUp(() -> persistence().fork(parent, chosen.checkpointId(), child));

        assertThat(first.agentId()).isEqualTo(child);
        assertThat(first.version()).isZero();
        assertThat(first.createdAt()).isEqualTo(FORKED_AT);
        assertThat(first.parentCheckpointId()).isNull();
        assertThat(first.messageHistory()).isEqualTo(chosen.messageHistory());
        assertThat(first.state()).isEqualTo(chosen.state());
        assertThat(first.lastInput()).isEqualTo(chosen.lastInput());
        assertThat(first.nodeId()).isEqualTo(chosen.nodeId());
        assertThat(first.metadata())
                .containsAllEntriesOf(chosen.metadata())
                .containsEntry(ForkOrigin.PARENT_AGENT_KEY, parent)
                .containsEntry(ForkOrigin.PARENT_CHECKPOINT_KEY, chosen.checkpointId())
                .containsEntry(ForkOrigin.PARENT_VERSION_KEY, "1");
        assertThat(provider().getCheckpoints(child)).containsExactly(first);
    }

    @Test
    @DisplayName("the parent is not touched, and parent and fork go on independently")
    void parentUntouchedAndIndependent() {
        String parent = agent("fork-untouched");
        String child = agent("fork-independent");
        saveAll(parent, List.of(Checkpoints.simple(parent, 0), Checkpoints.simple(parent, 1)));
        var before = provider().getCheckpoints(parent);
        var persistence = persistence();

        AgentCheckpoint first = lookingUp(() -> persistence.fork(parent, Checkpoints.checkpointId(0), child));
        var next = persistence.createCheckpoint(new SimpleAgentContext(child), "after-fork", null, null);

        assertThat(provider().getCheckpoints(parent)).isEqualTo(before);
        assertThat(next.version()).isEqualTo(1);
        assertThat(next.parentCheckpointId()).isEqualTo(first.checkpointId());
        assertThat(versions(provider().getCheckpoints(child))).containsExactly(0L, 1L);
        assertThat(provider().getLatestCheckpoint(parent).orElseThrow().version())
                .isEqualTo(1);
    }

    @Test
    @DisplayName("lineage lists a fork of a fork up to the root, also through another provider instance")
    void lineageUpToTheRoot() {
        String root = agent("lineage-root");
        String child = agent("lineage-child");
        String grandchild = agent("lineage-grandchild");
        saveAll(root, List.of(Checkpoints.simple(root, 0), Checkpoints.simple(root, 1)));
        var persistence = persistence();
        AgentCheckpoint childFirst = lookingUp(() -> persistence.fork(root, Checkpoints.checkpointId(1), child));
        persistence.fork(child, childFirst.checkpointId(), grandchild);

        var lineage = persistence.lineage(grandchild);

        assertThat(lineage)
                .extracting(ForkOrigin::agentId, ForkOrigin::parentAgentId, ForkOrigin::parentVersion)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(grandchild, child, 0L),
                        org.assertj.core.groups.Tuple.tuple(child, root, 1L));
        assertThat(lineage.get(1).parentCheckpointId()).isEqualTo(Checkpoints.checkpointId(1));
        assertThat(lineage).allSatisfy(origin -> assertThat(origin.forkedAt()).isEqualTo(FORKED_AT));
        assertThat(persistence.lineage(root)).isEmpty();
        if (sharesStorage()) {
            var other = AgentPersistence.builder().storage(newProvider()).build();
            assertThat(other.lineage(grandchild)).isEqualTo(lineage);
        }
    }

    @Test
    @DisplayName(
            "forking into an agent that has checkpoints, from an unknown checkpoint or from a tombstone is refused")
    void refusals() {
        String parent = agent("fork-refusals");
        String taken = agent("fork-taken");
        saveAll(
                parent,
                List.of(Checkpoints.simple(parent, 0), AgentCheckpoint.tombstone(parent, 1, Checkpoints.createdAt(1))));
        saveAll(taken, List.of(Checkpoints.simple(taken, 0)));
        var persistence = persistence();
        String tombstoneId =
                provider().getLatestCheckpoint(parent).orElseThrow().checkpointId();

        lookingUp(() -> persistence.checkpoint(parent, Checkpoints.checkpointId(0)));
        assertThatThrownBy(() -> persistence.fork(parent, Checkpoints.checkpointId(0), taken))
                .isInstanceOf(AgentAlreadyExistsException.class)
                .hasMessageContaining(taken);
        assertThatThrownBy(() -> persistence.fork(parent, "no-such-checkpoint", agent("fork-nowhere")))
                .isInstanceOf(CheckpointNotFoundException.class);
        assertThatThrownBy(() -> persistence.fork(parent, tombstoneId, agent("fork-of-tombstone")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tombstone");
        assertThat(provider().getCheckpoints(taken)).hasSize(1);
    }

    @Test
    @DisplayName("a fork of a long run reads exactly after its parent is deleted and swept, and goes on from there")
    void forkOutlivesItsParent() {
        String parent = agent("fork-long-parent");
        String child = agent("fork-long-child");
        var run = new GrowingRun(parent).save(provider(), 120);
        AgentCheckpoint first = lookingUp(() -> persistence().fork(parent, "step-100", child));
        var forked = GrowingRun.resume(first).save(provider(), 20);

        assertThat(optional("deleteCheckpoints", () -> provider().deleteCheckpoints(parent)))
                .isEqualTo(120);
        sweep(RetentionPolicy.keepAll(), parent, child);

        assertThat(first.messageHistory()).isEqualTo(run.saved().get(100).messageHistory());
        assertThat(provider().getCheckpoints(child)).containsExactlyElementsOf(forked.saved());
        if (sharesStorage()) {
            assertThat(newProvider().getCheckpoints(child)).containsExactlyElementsOf(forked.saved());
        }
        forked.save(provider(), 5);
        assertThat(provider().getCheckpoints(child)).containsExactlyElementsOf(forked.saved());
    }

    @Test
    @DisplayName("a fork of a fork reads exactly after its parent keeps only its latest and its root is deleted")
    void forkOfAForkOutlivesItsAncestors() {
        String root = agent("fork-chain-root");
        String child = agent("fork-chain-child");
        String grandchild = agent("fork-chain-grandchild");
        new GrowingRun(root).save(provider(), 60);
        var persistence = persistence();
        AgentCheckpoint childFirst = lookingUp(() -> persistence.fork(root, "step-50", child));
        var childRun = GrowingRun.resume(childFirst).save(provider(), 30);
        AgentCheckpoint grandchildFirst = persistence.fork(child, "step-20", grandchild);
        var grandchildRun = GrowingRun.resume(grandchildFirst).save(provider(), 10);

        optional("deleteCheckpoints", () -> provider().deleteCheckpoints(root));
        sweep(RetentionPolicy.custom().keepLatest(1).build(), root, child, grandchild);

        assertThat(grandchildFirst.messageHistory())
                .isEqualTo(childRun.saved().get(20).messageHistory());
        assertThat(provider().getCheckpoints(child))
                .containsExactly(childRun.saved().get(30));
        assertThat(provider().getCheckpoints(grandchild))
                .containsExactly(grandchildRun.saved().get(10));
        if (sharesStorage()) {
            assertThat(newProvider().getCheckpoints(grandchild))
                    .containsExactly(grandchildRun.saved().get(10));
        }
    }

    @Test
    @DisplayName("deleting a fork and sweeping leaves its parent exact")
    void deletedForkLeavesTheParent() {
        String parent = agent("fork-gone-parent");
        String child = agent("fork-gone-child");
        var run = new GrowingRun(parent).save(provider(), 80);
        lookingUp(() -> persistence().fork(parent, "step-60", child));

        optional("deleteCheckpoints", () -> provider().deleteCheckpoints(child));
        sweep(RetentionPolicy.keepAll(), parent, child);

        assertThat(provider().getCheckpoints(child)).isEmpty();
        assertThat(provider().getCheckpoints(parent)).containsExactlyElementsOf(run.saved());
    }

    /** Sweeps {@code agents} with {@code policy}, every unreferenced segment counting as garbage. */
    private void sweep(RetentionPolicy policy, String... agents) {
        optional(
                "deleteCheckpointsBefore",
                () -> RetentionContract.eagerSweeper(provider(), policy).sweep(List.of(agents)));
    }
}
