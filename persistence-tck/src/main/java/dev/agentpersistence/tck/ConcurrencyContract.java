package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Concurrent saves never both win, never lose a checkpoint and never expose half a checkpoint. */
abstract class ConcurrencyContract extends Contract {
    static final int THREADS = 16;
    static final int ROUNDS = 12;

    ConcurrencyContract(KitSession session) {
        super(session);
    }

    /** The checkpoint racer {@code racer} tries to save at {@code version}: each racer's content differs. */
    static AgentCheckpoint contender(String agent, long version, int racer) {
        return Checkpoints.builder(agent, version)
                .checkpointId("v" + version + "-racer-" + racer)
                .metadata("racer", Integer.toString(racer))
                .build();
    }

    /**
     * Races {@link #THREADS} different checkpoints at each of {@link #ROUNDS} versions; racer {@code i} saves through
     * {@code providers.apply(i)}. Checks exactly one winner per version, conflicts for the rest, and that the stored
     * checkpoint is the winner's.
     */
    static void raceForVersions(
            Contract contract, String agent, IntFunction<PersistenceStorageProvider<CheckpointFilter>> providers) {
        var winners = new ArrayList<AgentCheckpoint>();
        for (long version = 0; version < ROUNDS; version++) {
            long v = version;
            var outcomes = Race.run(
                    THREADS, racer -> providers.apply(racer).saveCheckpoint(agent, contender(agent, v, racer)));
            var won = outcomes.stream().filter(Race.Outcome::succeeded).toList();
            assertThat(won)
                    .as("racers that won version %d (exactly one may)", v)
                    .hasSize(1);
            for (var outcome : outcomes) {
                if (!outcome.succeeded()) {
                    assertThat(outcome.failure())
                            .as("what a losing racer at version %d got", v)
                            .isInstanceOf(CheckpointConflictException.class);
                }
            }
            var winner = contender(agent, v, won.get(0).racer());
            winners.add(winner);
            var stored = contract.provider()
                    .getCheckpoints(
                            agent,
                            CheckpointFilter.builder().maxVersion(v).limit(1).build());
            assertThat(stored).as("stored at version %d", v).containsExactly(winner);
        }
        assertThat(contract.provider().getCheckpoints(agent)).containsExactlyElementsOf(winners);
    }

    @Test
    @Timeout(120)
    @DisplayName("16 threads saving different checkpoints at the same version: exactly one wins, the rest get "
            + "CheckpointConflictException")
    void oneWinnerPerVersion() {
        var provider = provider();
        raceForVersions(this, agent("race"), racer -> provider);
    }

    @Test
    @Timeout(120)
    @DisplayName("16 threads re-saving the identical checkpoint all succeed and one copy is stored")
    void identicalRacersAllSucceed() {
        String agent = agent("race-identical");
        var checkpoint = Checkpoints.full(agent, 0);
        var outcomes = Race.run(THREADS, racer -> provider().saveCheckpoint(agent, checkpoint));
        for (var outcome : outcomes) {
            assertThat(outcome.failure()).as("racer %d", outcome.racer()).isNull();
        }
        assertThat(provider().getCheckpoints(agent)).containsExactly(checkpoint);
    }

    @Test
    @Timeout(120)
    @DisplayName("16 threads saving distinct versions concurrently lose nothing")
    void noLostSaves() {
        String agent = agent("race-distinct");
        int perThread = 20;
        var outcomes = Race.run(THREADS, racer -> {
            for (int i = 0; i < perThread; i++) {
                provider().saveCheckpoint(agent, Checkpoints.simple(agent, (long) i * THREADS + racer));
            }
        });
        for (var outcome : outcomes) {
            assertThat(outcome.failure()).as("racer %d", outcome.racer()).isNull();
        }
        var expected = new ArrayList<AgentCheckpoint>();
        for (long v = 0; v < (long) perThread * THREADS; v++) {
            expected.add(Checkpoints.simple(agent, v));
        }
        assertThat(provider().getCheckpoints(agent)).containsExactlyElementsOf(expected);
        assertThat(provider().getLatestCheckpoint(agent)).contains(expected.get(expected.size() - 1));
    }

    @Test
    @Timeout(120)
    @DisplayName("16 threads saving under 16 different agents at once keep every agent's checkpoints apart")
    void concurrentAgents() {
        String base = agent("race-agents");
        var outcomes = Race.run(THREADS, racer -> {
            String agent = base + "/" + racer;
            for (int v = 0; v < 10; v++) {
                provider()
                        .saveCheckpoint(
                                agent,
                                Checkpoints.builder(agent, v)
                                        .metadata("racer", "" + racer)
                                        .build());
            }
        });
        for (var outcome : outcomes) {
            assertThat(outcome.failure()).as("racer %d", outcome.racer()).isNull();
        }
        for (int racer = 0; racer < THREADS; racer++) {
            String agent = base + "/" + racer;
            var expected = new ArrayList<AgentCheckpoint>();
            for (int v = 0; v < 10; v++) {
                expected.add(Checkpoints.builder(agent, v)
                        .metadata("racer", "" + racer)
                        .build());
            }
            assertThat(provider().getCheckpoints(agent)).as("agent %s", agent).containsExactlyElementsOf(expected);
        }
    }

    @Test
    @Timeout(120)
    @DisplayName("readers running during saves see only complete checkpoints")
    void readersSeeWholeCheckpoints() {
        String agent = agent("race-readers");
        int saves = 40;
        var done = new AtomicBoolean();
        var wrong = new ConcurrentLinkedQueue<String>();
        var outcomes = Race.run(4, racer -> {
            if (racer == 0) {
                try {
                    for (int v = 0; v < saves; v++) {
                        provider().saveCheckpoint(agent, Checkpoints.full(agent, v));
                    }
                } finally {
                    done.set(true);
                }
                return;
            }
            while (!done.get()) {
                List<AgentCheckpoint> listed = provider().getCheckpoints(agent);
                for (int i = 0; i < listed.size(); i++) {
                    var checkpoint = listed.get(i);
                    if (!checkpoint.equals(Checkpoints.full(agent, checkpoint.version()))) {
                        wrong.add("listed version " + checkpoint.version() + " differs from what was saved");
                    }
                    if (checkpoint.version() != i) {
                        wrong.add("listed " + i + "th checkpoint has version " + checkpoint.version());
                    }
                }
                provider().getLatestCheckpoint(agent).ifPresent(latest -> {
                    if (!latest.equals(Checkpoints.full(agent, latest.version()))) {
                        wrong.add("latest version " + latest.version() + " differs from what was saved");
                    }
                });
            }
        });
        for (var outcome : outcomes) {
            assertThat(outcome.failure()).as("racer %d", outcome.racer()).isNull();
        }
        assertThat(wrong).as("what readers saw").isEmpty();
        assertThat(provider().getCheckpoints(agent)).hasSize(saves);
    }
}
