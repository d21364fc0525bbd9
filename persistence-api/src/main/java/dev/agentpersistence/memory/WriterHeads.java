package dev.agentpersistence.memory;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.internal.LruMaps;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The head each conversation, graph thread or agent session of one writer is on: the checkpoint the writer last served
 * or wrote for it. The writer's next save names that head as its parent and takes the version after it, so a save based
 * on a head another writer has superseded is refused (a compare-and-set on the agent's head) instead of being appended
 * after the other writer's work. Frameworks do not hand the head over, so their adapters remember it here.
 *
 * <p>Bounded: past {@code capacity} keys the least recently used is forgotten, and that key's next save is based on its
 * latest checkpoint, as a first save is. Thread-safe.
 */
public final class WriterHeads {
    /** How many keys a writer remembers unless told otherwise. */
    public static final int DEFAULT_CAPACITY = 4096;

    private final Map<String, Head> heads;

    private WriterHeads(int capacity) {
        this.heads = LruMaps.bounded(capacity);
    }

    /** Heads of at most {@code capacity} keys. */
    public static WriterHeads bounded(int capacity) {
        return new WriterHeads(capacity);
    }

    /** The head remembered for {@code key}. */
    public synchronized Optional<Head> get(String key) {
        return Optional.ofNullable(heads.get(Objects.requireNonNull(key, "key")));
    }

    /** Remembers {@code head} as the head of {@code key}. */
    public synchronized void remember(String key, AgentCheckpoint head) {
        heads.put(Objects.requireNonNull(key, "key"), Head.of(head));
    }

    /** Remembers {@code head} unless a head is remembered for {@code key} that is not a tombstone. */
    public synchronized void rememberUnlessRunning(String key, AgentCheckpoint head) {
        Head known = heads.get(Objects.requireNonNull(key, "key"));
        if (known == null || known.tombstone()) {
            heads.put(key, Head.of(head));
        }
    }

    /** Forgets the head of {@code key}: its next save is based on its latest checkpoint. */
    public synchronized void forget(String key) {
        heads.remove(Objects.requireNonNull(key, "key"));
    }

    /**
     * One remembered head.
     *
     * @param checkpointId the head checkpoint's id
     * @param version its version
     * @param tombstone whether it marks a finished run
     */
    public record Head(String checkpointId, long version, boolean tombstone) {
        /** Validates the id. */
        public Head {
            Objects.requireNonNull(checkpointId, "checkpointId");
        }

        /** The head {@code checkpoint} is. */
        public static Head of(AgentCheckpoint checkpoint) {
            return new Head(checkpoint.checkpointId(), checkpoint.version(), checkpoint.isTombstone());
        }

        /** Whether {@code latest} is still this head: same checkpoint id and version. */
        public boolean isStill(Optional<AgentCheckpoint> latest) {
            return latest.isPresent()
                    && latest.get().checkpointId().equals(checkpointId)
                    && latest.get().version() == version;
        }

        @Override
        public String toString() {
            return "'" + checkpointId + "' (version " + version + ")";
        }
    }
}
