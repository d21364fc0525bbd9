package dev.agentpersistence.pipeline.internal;

import dev.agentpersistence.ToolCall;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An attempt the journal shows as started but never settled (its process ended first).
 *
 * @param node the node
 * @param attempt the attempt's number
 * @param calls the calls whose intent was journaled, in the order made
 * @param keys call id → idempotency key
 * @param unfinished the ids of calls with neither result nor failure recorded (possibly done)
 */
public record OpenAttempt(
        String node, int attempt, List<ToolCall> calls, Map<String, String> keys, Set<String> unfinished) {

    public OpenAttempt {
        calls = List.copyOf(calls);
        keys = Map.copyOf(keys);
        unfinished = Set.copyOf(unfinished);
    }

    /** Collects an attempt's entries in journal order. */
    static final class Builder {
        private final String node;
        private final int attempt;
        private final List<ToolCall> calls = new ArrayList<>();
        private final Map<String, String> keys = new LinkedHashMap<>();
        private final Set<String> finished = new HashSet<>();

        Builder(String node, int attempt) {
            this.node = node;
            this.attempt = attempt;
        }

        void add(JournalEntry entry) {
            switch (entry.kind()) {
                case INTENT -> {
                    calls.add(entry.call());
                    keys.put(entry.callId(), entry.key());
                }
                case RESULT, FAILURE -> finished.add(entry.callId());
                default -> throw new IllegalArgumentException("not an entry of an open attempt: " + entry.kind());
            }
        }

        OpenAttempt build() {
            var unfinished = new HashSet<String>();
            calls.forEach(call -> {
                if (!finished.contains(call.id())) {
                    unfinished.add(call.id());
                }
            });
            return new OpenAttempt(node, attempt, calls, keys, unfinished);
        }
    }
}
