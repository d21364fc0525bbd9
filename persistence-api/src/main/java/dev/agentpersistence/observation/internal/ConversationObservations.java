package dev.agentpersistence.observation.internal;

import dev.agentpersistence.metrics.StorageMetricNames;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.ObservationRegistry;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The observations of the chat memory ({@code ConversationStore}): one per load, append, replacement, clear, deletion
 * and rollback of a conversation, named {@value StorageMetricNames#CONVERSATION} with the low-cardinality keys
 * {@code operation} and {@code outcome}. The storage calls an operation makes are observed inside it.
 */
public final class ConversationObservations {
    private final Observer observer;

    public ConversationObservations(ObservationRegistry registry) {
        this.observer = Observer.of(registry);
    }

    /** Runs the chat-memory {@code operation} inside its observation. */
    public <T> T observe(Operation operation, Supplier<T> call) {
        return observer.observe(
                StorageMetricNames.CONVERSATION, operation.contextualName, operation.keys, context -> call.get());
    }

    /** The chat-memory operations, each the value of its {@code operation} key in lower case. */
    public enum Operation {
        LOAD,
        APPEND,
        REPLACE,
        CLEAR,
        DELETE,
        ROLLBACK;

        private final KeyValues keys;
        private final String contextualName;

        Operation() {
            String tag = name().toLowerCase(Locale.ROOT);
            this.keys = KeyValues.of(StorageMetricNames.TAG_OPERATION, tag);
            this.contextualName = "agent.persistence conversation " + tag;
        }
    }
}
