package dev.agentpersistence.observation;

import dev.agentpersistence.metrics.StorageMetricNames;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The context of one observation of agent-persistence: its low-cardinality key values (for example {@code provider},
 * {@code operation} and {@code outcome}), for saves the bytes the backend wrote, and the counts the operation made
 * (conflict retries, inverse tool calls), which a meter handler adds to counters.
 *
 * <p>The keys it is created with and the outcome are kept apart from the keys handlers and filters add, and both are
 * part of {@link #getLowCardinalityKeyValues()}: an observation that nobody else adds to costs no map entries.
 */
public final class AgentObservationContext extends Observation.Context {
    private final KeyValues keys;
    private long bytesWritten = -1;
    private String outcome;
    private List<Count> counts = List.of();
    /** Whether a handler or filter added a low-cardinality key (then the keys are merged at every read). */
    private boolean keysAdded;
    /** The running timer of {@link AgentMeterHandler}. */
    Timer.Sample sample;

    /** A context without keys of its own. */
    public AgentObservationContext() {
        this(KeyValues.empty());
    }

    /** A context with the low-cardinality {@code keys} of its operation (for example provider and operation). */
    public AgentObservationContext(KeyValues keys) {
        this.keys = Objects.requireNonNull(keys, "keys");
    }

    /** The keys it was created with, the outcome once known, and any key a handler or filter added. */
    @Override
    public KeyValues getLowCardinalityKeyValues() {
        KeyValues own = outcome == null ? keys : keys.and(StorageMetricNames.TAG_OUTCOME, outcome);
        if (!keysAdded) {
            return own;
        }
        KeyValues added = super.getLowCardinalityKeyValues();
        return added.iterator().hasNext() ? own.and(added) : own;
    }

    @Override
    public Observation.Context addLowCardinalityKeyValue(KeyValue keyValue) {
        keysAdded = true;
        return super.addLowCardinalityKeyValue(keyValue);
    }

    @Override
    public Observation.Context addLowCardinalityKeyValues(KeyValues keyValues) {
        keysAdded = true;
        return super.addLowCardinalityKeyValues(keyValues);
    }

    /** The keys it was created with, when no handler or filter added one; else {@code null}. */
    KeyValues ownKeysIfAlone() {
        return keysAdded ? null : keys;
    }

    @Override
    public KeyValue getLowCardinalityKeyValue(String key) {
        KeyValue added = keysAdded ? super.getLowCardinalityKeyValue(key) : null;
        if (added != null) {
            return added;
        }
        if (outcome != null && StorageMetricNames.TAG_OUTCOME.equals(key)) {
            return KeyValue.of(key, outcome);
        }
        for (KeyValue own : keys) {
            if (own.getKey().equals(key)) {
                return own;
            }
        }
        return null;
    }

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
        if (counts.isEmpty()) {
            counts = new ArrayList<>(2);
        }
        counts.add(new Count(Objects.requireNonNull(name, "name"), Objects.requireNonNull(tags, "tags"), amount));
    }

    /** The counts made so far, in the order they were made. */
    public List<Count> counts() {
        return List.copyOf(counts);
    }

    /** The counts made so far, not copied: for the meter handler, once the observation stopped. */
    List<Count> countsAsMade() {
        return counts;
    }

    /** One count: {@code amount} added to the counter {@code name} with {@code tags}. */
    public record Count(String name, KeyValues tags, long amount) {}
}
