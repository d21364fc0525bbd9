package dev.agentpersistence.benchmarks.history;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.backend.SegmentInfo;
import dev.agentpersistence.benchmarks.fixture.TextSource;
import java.time.Instant;
import java.util.ArrayList;

/**
 * One measured run: {@code steps} saves of one agent, each adding a user and an assistant message of {@code stepBytes /
 * 2} characters, with the save time of every step; then what the run stored.
 */
final class GrowthRun {
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    private static final int PAGE = 20;

    private final int steps;
    private final int stepBytes;

    GrowthRun(int steps, int stepBytes) {
        this.steps = steps;
        this.stepBytes = stepBytes;
    }

    /**
     * What one run measured.
     *
     * @param saveNanos the time of each save, in step order
     * @param logicalBytes bytes of the stored documents: checkpoints as stored plus history segments
     * @param latestExact whether the latest checkpoint read back equal to the last one saved
     */
    record Outcome(long[] saveNanos, long logicalBytes, boolean latestExact) {
        long totalNanos() {
            long total = 0;
            for (long nanos : saveNanos) {
                total += nanos;
            }
            return total;
        }

        /** Mean save time of steps {@code [from, to)} in milliseconds. */
        double meanMillis(int from, int to) {
            long total = 0;
            for (int i = from; i < to; i++) {
                total += saveNanos[i];
            }
            return total / 1e6 / (to - from);
        }
    }

    Outcome run(PersistenceStorageProvider<CheckpointFilter> provider, String agentId) {
        var text = new TextSource(42);
        var history = new ArrayList<Message>();
        long[] nanos = new long[steps];
        AgentCheckpoint last = null;
        for (int step = 0; step < steps; step++) {
            history.add(Message.user(text.next(stepBytes / 2)));
            history.add(Message.assistant(text.next(stepBytes / 2)));
            last = AgentCheckpoint.builder()
                    .checkpointId("step-" + step)
                    .agentId(agentId)
                    .version(step)
                    .createdAt(START.plusSeconds(step))
                    .nodeId("step")
                    .messageHistory(history)
                    .build();
            long started = System.nanoTime();
            provider.saveCheckpoint(agentId, last);
            nanos[step] = System.nanoTime() - started;
        }
        boolean exact = provider.getLatestCheckpoint(agentId).map(last::equals).orElse(false);
        return new Outcome(nanos, logicalBytes(provider, agentId), exact);
    }

    /** The stored bytes of what is kept: the stored documents of the agent's checkpoints plus every history segment. */
    private static long logicalBytes(PersistenceStorageProvider<CheckpointFilter> provider, String agentId) {
        var form = provider.storedForm()
                .orElseThrow(() -> new IllegalArgumentException(
                        provider + " is not a storage shell: its stored bytes cannot be measured"));
        long bytes = 0;
        for (var document : form.documents(agentId, CheckpointFilter.ALL)) {
            bytes += document.size();
        }
        var segments = form.segments();
        var ids = segments.listSegments(agentId).stream()
                .map(SegmentInfo::segmentId)
                .toList();
        for (byte[] content : segments.getSegments(agentId, ids).values()) {
            bytes += content.length;
        }
        return bytes;
    }
}
