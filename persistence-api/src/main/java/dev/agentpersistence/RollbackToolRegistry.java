package dev.agentpersistence;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Pairs tools with the inverse tools that undo their side effects. On a rollback, every tool call
 * made after the restored checkpoint whose tool has an inverse gets the inverse called with the
 * same arguments, newest first. Making the inverse really undo the tool is the developer's job.
 * Immutable; build with {@link #builder()}.
 */
public final class RollbackToolRegistry {
    /** No inverses: a rollback restores state only. */
    public static final RollbackToolRegistry EMPTY = new RollbackToolRegistry(Map.of());

    private final Map<String, Tool> inverses;

    private RollbackToolRegistry(Map<String, Tool> inverses) {
        this.inverses = inverses;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The inverse registered for {@code toolName}. */
    public Optional<Tool> inverseOf(String toolName) {
        return Optional.ofNullable(inverses.get(Objects.requireNonNull(toolName, "toolName")));
    }

    /** Whether {@code toolName} has an inverse. */
    public boolean hasInverse(String toolName) {
        return inverses.containsKey(Objects.requireNonNull(toolName, "toolName"));
    }

    /** Tool name → inverse tool, in registration order. */
    public Map<String, Tool> inverses() {
        return inverses;
    }

    @Override
    public String toString() {
        var pairs = new StringBuilder();
        inverses.forEach((tool, inverse) -> pairs.append(pairs.length() == 0 ? "" : ", ")
                .append(tool).append(" -> ").append(inverse.name()));
        return "RollbackToolRegistry[" + pairs + "]";
    }

    /** Collects tool/inverse pairs; each tool may be registered once. */
    public static final class Builder {
        private final Map<String, Tool> inverses = new LinkedHashMap<>();

        private Builder() {
        }

        /**
         * Registers {@code inverseTool} as the undo of {@code tool}; it receives the same arguments.
         *
         * @throws IllegalArgumentException when {@code tool} already has an inverse
         */
        public Builder registerRollback(Tool tool, Tool inverseTool) {
            Objects.requireNonNull(tool, "tool");
            return registerRollback(tool.name(), inverseTool);
        }

        /** Registers an inverse for the tool named {@code toolName}. */
        public Builder registerRollback(String toolName, Tool inverseTool) {
            Objects.requireNonNull(toolName, "toolName");
            Objects.requireNonNull(inverseTool, "inverseTool");
            if (inverses.containsKey(toolName)) {
                throw new IllegalArgumentException("Tool '" + toolName + "' already has the inverse '"
                        + inverses.get(toolName).name() + "'; cannot also register '" + inverseTool.name() + "'");
            }
            inverses.put(toolName, inverseTool);
            return this;
        }

        /** Registers an inverse written as a lambda: {@code registerRollback("createUser", "removeUser", args -> …)}. */
        public Builder registerRollback(String toolName, String inverseName, Tool.ToolFunction inverse) {
            return registerRollback(toolName, Tool.of(inverseName, inverse));
        }

        public RollbackToolRegistry build() {
            return new RollbackToolRegistry(Collections.unmodifiableMap(new LinkedHashMap<>(inverses)));
        }
    }
}
