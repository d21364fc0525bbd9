package dev.agentpersistence.pipeline;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * A deterministic, rule-based check of a pipeline state: the same state always gives the same violations. Used as a
 * node's precondition (what earlier nodes must have done) or postcondition (what this node must have done). Ready-made
 * checks are in {@link Conditions}.
 *
 * @param <S> the pipeline state type
 */
public interface Condition<S> {

    /** A short name, used in {@link Violation#condition()} and as a metric tag. */
    String name();

    /** The violations {@code state} has; empty when the condition holds. Must not change {@code state}. */
    List<Violation> check(S state);

    /** A condition from a name and a function returning the messages of its violations (empty: holds). */
    static <S> Condition<S> of(String name, Function<? super S, ? extends List<String>> messages) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(messages, "messages");
        return new Condition<>() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public List<Violation> check(S state) {
                List<String> found =
                        Objects.requireNonNull(messages.apply(state), () -> "condition '" + name + "' returned null");
                return found.stream()
                        .map(message -> new Violation(name, message))
                        .toList();
            }

            @Override
            public String toString() {
                return "Condition[" + name + "]";
            }
        };
    }
}
