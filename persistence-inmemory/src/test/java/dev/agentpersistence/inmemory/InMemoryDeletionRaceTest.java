package dev.agentpersistence.inmemory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.tck.Checkpoints;
import java.util.ArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Saves racing with deletions of the same agent are either deleted and counted, or still stored. */
class InMemoryDeletionRaceTest {

    @Test
    @Timeout(60)
    void everySaveIsEitherCountedByADeletionOrStillStored() throws Exception {
        var provider = InMemoryStorage.builder().build();
        int savers = 6;
        int savesEach = 2_000;
        var pool = Executors.newFixedThreadPool(savers + 1);
        try {
            var start = new CountDownLatch(1);
            var stop = new AtomicBoolean();
            var deleted = new AtomicLong();
            Future<?> deleter = pool.submit(() -> {
                start.await();
                boolean all = true;
                while (!stop.get()) {
                    deleted.addAndGet(
                            all
                                    ? provider.deleteCheckpoints("agent")
                                    : provider.deleteCheckpointsBefore("agent", Long.MAX_VALUE));
                    all = !all;
                }
                return null;
            });
            var saving = new ArrayList<Future<?>>();
            for (int s = 0; s < savers; s++) {
                long first = (long) s * savesEach;
                saving.add(pool.submit(() -> {
                    start.await();
                    for (long v = first; v < first + savesEach; v++) {
                        provider.saveCheckpoint("agent", Checkpoints.simple("agent", v));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (var future : saving) {
                future.get(50, TimeUnit.SECONDS);
            }
            stop.set(true);
            deleter.get(10, TimeUnit.SECONDS);

            long remaining = provider.getCheckpoints("agent").size();
            assertThat(deleted.get() + remaining).isEqualTo((long) savers * savesEach);
            assertThat(provider.listAgents())
                    .isEqualTo(remaining == 0 ? java.util.List.of() : java.util.List.of("agent"));
        } finally {
            pool.shutdownNow();
            provider.close();
        }
    }
}
