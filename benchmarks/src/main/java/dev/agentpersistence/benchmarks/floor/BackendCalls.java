package dev.agentpersistence.benchmarks.floor;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Calls that reached a storage backend, by method name; what {@link CountingBackend} counts. Thread-safe. */
final class BackendCalls {
    private final Map<String, Long> calls = new TreeMap<>();

    /** Counts one call of {@code method}. */
    synchronized void count(String method) {
        calls.merge(Objects.requireNonNull(method, "method"), 1L, Long::sum);
    }

    /** Forgets the calls counted so far. */
    synchronized void reset() {
        calls.clear();
    }

    /** All calls counted. */
    synchronized long total() {
        return calls.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The total and the calls of each method, such as {@code 3 (getSegments 2, latest 1)}. */
    synchronized String describe() {
        return total() + " ("
                + calls.entrySet().stream()
                        .map(call -> call.getKey() + " " + call.getValue())
                        .collect(Collectors.joining(", "))
                + ")";
    }
}
