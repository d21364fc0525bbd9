package dev.agentpersistence.observation;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The context of one observation of agent-persistence: its low-cardinality key values (for example {@code provider},
 * {@code operation} and {@code outcome}), for saves the bytes the backend wrote, and the counts the operation made
 * (conflict retries, inverse tool calls), which a meter handler adds to counters.
 */
public final class AgentObservationContext extends Observation.Context {
    private long bytesWritten = -1;
    private String outcome;
    private final List<Count> counts = new ArrayList<>(0);

    /** The bytes the operation wrote, or -1 when it wrote none or did not say. */
    public long bytesWritten() {
        return bytesWritten;
    }

    /** Records the bytes the operation wrote. */
    public void bytesWritten(long bytes) {
        this.bytesWritten = bytes;
    }

    /** The outcome the operation reported itself, or {@code null} for the one the observer derives. */
    public String outcome() {
        return outcome;
    }

    /** Reports the operation's outcome (for example a rollback's), used when it returns normally. */
    public void outcome(String outcome) {
        this.outcome = Objects.requireNonNull(outcome, "outcome");
    }

    /** Adds {@code amount} to the counter {@code name} with {@code tags} when the observation stops. */
    public void count(String name, KeyValues tags, long amount) {
        counts.add(new Count(Objects.requireNonNull(name, "name"), Objects.requireNonNull(tags, "tags"), amount));
    }

    /** The counts made so far, in the order they were made. */
    public List<Count> counts() {
        return List.copyOf(counts);
    }

    /** One count: {@code amount} added to the counter {@code name} with {@code tags}. */
    public record Count(String name, KeyValues tags, long amount) {}
}
