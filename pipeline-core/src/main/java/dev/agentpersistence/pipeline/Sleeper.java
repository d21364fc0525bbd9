package dev.agentpersistence.pipeline;

import java.time.Duration;

/** Waits between retries. Inject a recording sleeper in tests to check backoff without waiting. */
@FunctionalInterface
public interface Sleeper {

    /** Blocks for {@code duration}. */
    void sleep(Duration duration) throws InterruptedException;

    /** Sleeps with {@link Thread#sleep(long, int)}. */
    static Sleeper threadSleep() {
        return duration -> {
            if (!duration.isNegative() && !duration.isZero()) {
                Thread.sleep(duration.toMillis(), (int) (duration.toNanos() % 1_000_000));
            }
        };
    }
}
