package dev.agentpersistence.pipeline;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A sleeper that records the waits asked for and returns at once. */
final class RecordingSleeper implements Sleeper {
    private final List<Duration> sleeps = new CopyOnWriteArrayList<>();

    @Override
    public void sleep(Duration duration) {
        sleeps.add(duration);
    }

    List<Duration> sleeps() {
        return List.copyOf(sleeps);
    }
}
