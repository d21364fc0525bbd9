package dev.agentpersistence.jdbc.internal;

import java.util.concurrent.ThreadLocalRandom;

/** Short randomized pauses between retries of an operation that collided with another writer. */
final class RetryPause {
    private RetryPause() {}

    /** Sleeps about {@code 5ms * 2^(attempt-1)}, at most ~200ms, with jitter; keeps the interrupt flag. */
    static void pause(int attempt) {
        long base = Math.min(200, 5L << Math.min(attempt - 1, 6));
        try {
            Thread.sleep(base / 2 + ThreadLocalRandom.current().nextLong(base / 2 + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
