package dev.agentpersistence.pipeline;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One named step of a {@link Pipeline}: preconditions (what earlier nodes must have done), an action, and
 * postconditions (what this node must have done). Immutable; build with {@link #builder(String)}.
 *
 * <p>Names identify nodes in checkpoints, so they must be unique within a pipeline and stable across versions of it;
 * names starting with {@code "__"} are reserved.
 *
 * @param <S> the pipeline state type
 */
public final class Node<S> {
    private final String name;
    private final List<Condition<S>> preconditions;
    private final List<Condition<S>> postconditions;
    private final NodeAction<S> action;
    private final RetryPolicy retryPolicy;

    private Node(Builder<S> builder) {
        this.name = builder.name;
        this.preconditions = List.copyOf(builder.preconditions);
        this.postconditions = List.copyOf(builder.postconditions);
        this.action = Objects.requireNonNull(builder.action, () -> "node '" + builder.name + "' has no action");
        this.retryPolicy = builder.retryPolicy;
    }

    /** Starts a node called {@code name}. */
    public static <S> Builder<S> builder(String name) {
        return new Builder<>(name);
    }

    /** A node without conditions. */
    public static <S> Node<S> of(String name, NodeAction<S> action) {
        return Node.<S>builder(name).action(action).build();
    }

    public String name() {
        return name;
    }

    public List<Condition<S>> preconditions() {
        return preconditions;
    }

    public List<Condition<S>> postconditions() {
        return postconditions;
    }

    public NodeAction<S> action() {
        return action;
    }

    /** This node's own retry policy; empty means the pipeline's. */
    public Optional<RetryPolicy> retryPolicy() {
        return Optional.ofNullable(retryPolicy);
    }

    @Override
    public String toString() {
        return "Node[" + name + ", " + preconditions.size() + " preconditions, " + postconditions.size()
                + " postconditions]";
    }

    /** Builds a {@link Node}; an action is required. */
    public static final class Builder<S> {
        private final String name;
        private final List<Condition<S>> preconditions = new ArrayList<>();
        private final List<Condition<S>> postconditions = new ArrayList<>();
        private NodeAction<S> action;
        private RetryPolicy retryPolicy;

        private Builder(String name) {
            Objects.requireNonNull(name, "name");
            if (name.isBlank()) {
                throw new IllegalArgumentException("node name must not be blank");
            }
            if (name.startsWith("__")) {
                throw new IllegalArgumentException("node names starting with \"__\" are reserved: " + name);
            }
            if (name.length() > 256 || name.chars().anyMatch(Character::isISOControl)) {
                throw new IllegalArgumentException(
                        "node name must be at most 256 characters without control characters");
            }
            this.name = name;
        }

        /** Adds a check that must hold before the action runs; a violation fails the run without retry. */
        public Builder<S> precondition(Condition<S> condition) {
            preconditions.add(Objects.requireNonNull(condition, "condition"));
            return this;
        }

        /** Adds several preconditions. */
        public Builder<S> preconditions(List<? extends Condition<S>> conditions) {
            Objects.requireNonNull(conditions, "conditions").forEach(this::precondition);
            return this;
        }

        /** Adds a check that must hold after the action; a violation rolls the attempt back and retries. */
        public Builder<S> postcondition(Condition<S> condition) {
            postconditions.add(Objects.requireNonNull(condition, "condition"));
            return this;
        }

        /** Adds several postconditions. */
        public Builder<S> postconditions(List<? extends Condition<S>> conditions) {
            Objects.requireNonNull(conditions, "conditions").forEach(this::postcondition);
            return this;
        }

        public Builder<S> action(NodeAction<S> action) {
            this.action = Objects.requireNonNull(action, "action");
            return this;
        }

        /** Overrides the pipeline's {@link RetryPolicy} for this node. */
        public Builder<S> retryPolicy(RetryPolicy retryPolicy) {
            this.retryPolicy = Objects.requireNonNull(retryPolicy, "retryPolicy");
            return this;
        }

        public Node<S> build() {
            return new Node<>(this);
        }
    }
}
