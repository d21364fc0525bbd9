package dev.agentpersistence.file.internal;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link WriterProcess#isKnownDead()} for the head file, cached: asking the platform about a process costs hundreds of
 * microseconds, and every change of the head looks at every save in flight. This process is alive without asking; a
 * process found dead stays dead (its identity includes its start time); one found alive is asked again after
 * {@link #RECHECK}. Bounded: the caches are emptied when they grow past {@link #MAX_ENTRIES}.
 */
final class WriterLiveness {
    static final Duration RECHECK = Duration.ofSeconds(1);
    static final int MAX_ENTRIES = 1024;

    private final Map<WriterProcess, Boolean> dead = new ConcurrentHashMap<>();
    private final Map<WriterProcess, Long> aliveUntil = new ConcurrentHashMap<>();

    /** Whether {@code process} is known to have ended; see {@link WriterProcess#isKnownDead()}. */
    boolean isKnownDead(WriterProcess process) {
        Optional<WriterProcess> self = WriterProcess.current();
        if (self.isPresent() && self.get().equals(process)) {
            return false;
        }
        if (dead.containsKey(process)) {
            return true;
        }
        Long until = aliveUntil.get(process);
        long now = System.nanoTime();
        if (until != null && until - now > 0) {
            return false;
        }
        boolean ended = process.isKnownDead();
        if (ended) {
            trim(dead);
            dead.put(process, Boolean.TRUE);
            aliveUntil.remove(process);
        } else {
            trim(aliveUntil);
            aliveUntil.put(process, now + RECHECK.toNanos());
        }
        return ended;
    }

    private static void trim(Map<?, ?> cache) {
        if (cache.size() >= MAX_ENTRIES) {
            cache.clear();
        }
    }
}
