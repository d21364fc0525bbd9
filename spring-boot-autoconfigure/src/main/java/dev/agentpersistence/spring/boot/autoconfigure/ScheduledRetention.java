package dev.agentpersistence.spring.boot.autoconfigure;

import dev.agentpersistence.history.RetentionSweeper;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.springframework.context.SmartLifecycle;

/**
 * Runs a {@link RetentionSweeper} every {@code interval} on a daemon thread of its own while the application context
 * runs; stopping the context stops it. Declared as a bean only when {@code agent.persistence.retention.keep-latest} or
 * {@code .max-age} is set.
 */
public final class ScheduledRetention implements SmartLifecycle {
    private final RetentionSweeper sweeper;
    private final Duration interval;
    private ScheduledExecutorService executor;

    /** Sweeps with {@code sweeper} every {@code interval}, the first time one interval after start. */
    public ScheduledRetention(RetentionSweeper sweeper, Duration interval) {
        this.sweeper = Objects.requireNonNull(sweeper, "sweeper");
        this.interval = Objects.requireNonNull(interval, "interval");
    }

    /** The sweeper that runs. */
    public RetentionSweeper sweeper() {
        return sweeper;
    }

    @Override
    public synchronized void start() {
        if (executor == null) {
            executor = Executors.newSingleThreadScheduledExecutor(task -> {
                var thread = new Thread(task, "agent-persistence-retention");
                thread.setDaemon(true);
                return thread;
            });
            sweeper.schedule(executor, interval);
        }
    }

    @Override
    public synchronized void stop() {
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return executor != null;
    }
}
