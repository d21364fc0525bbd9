package dev.agentpersistence;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pairs tools with the inverse tools that undo their side effects. On a rollback, every tool call made after the
 * restored checkpoint whose tool has an inverse gets the inverse called with the same arguments, newest first. Making
 * the inverse really undo the tool is the developer's job. Immutable; build with {@link #builder()}.
 *
 * <p><b>Recording rule.</b> A rollback finds the calls to undo in the agent's message history
 * ({@link ToolCallHistory#callsAfter}): only calls appended as {@link Message.Role#TOOL_CALL} messages, e.g.
 * {@code context.append(Message.toolCall(new ToolCall(id, "createUser", args)))}, are seen. A tool the agent runs
 * without recording it is not undone, and the rollback still reports {@linkplain RollbackReport#isClean() clean};
 * {@link RollbackReport#noCallsFound()} tells when no calls were recorded after the checkpoint at all.
 */
public final class RollbackToolRegistry {
    private static final Logger LOG = LoggerFactory.getLogger(RollbackToolRegistry.class);

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

    /**
     * Undoes tool calls: calls the inverse of every call whose tool has one, with the call's own arguments, newest call
     * first. An inverse that throws does not stop the others; it is recorded in {@link UndoResult#failures()}. Calls
     * whose tool has no inverse are listed in {@link UndoResult#withoutInverse()}. {@link Error}s are not caught.
     *
     * @param callsInOrderMade the calls to undo, oldest first (the order the agent made them)
     * @return what was undone, what failed and what had no inverse, each newest call first
     */
    public UndoResult undo(List<ToolCall> callsInOrderMade) {
        return undo(callsInOrderMade, ToolCall::id);
    }

    /**
     * As {@link #undo(List)}, giving every inverse that is a {@link KeyedTool} the idempotency key of the call it
     * undoes ({@link #undo(List)} uses the call id as key).
     *
     * @param callsInOrderMade the calls to undo, oldest first
     * @param idempotencyKeys the key each call was made with
     */
    public UndoResult undo(List<ToolCall> callsInOrderMade, Function<ToolCall, String> idempotencyKeys) {
        Objects.requireNonNull(callsInOrderMade, "callsInOrderMade");
        Objects.requireNonNull(idempotencyKeys, "idempotencyKeys");
        var calls = List.copyOf(callsInOrderMade); // also rejects null elements
        if (calls.isEmpty()) {
            return UndoResult.EMPTY;
        }
        var performed = new ArrayList<InverseCall>();
        var failures = new ArrayList<InverseFailure>();
        var withoutInverse = new ArrayList<ToolCall>();
        for (int i = calls.size() - 1; i >= 0; i--) {
            var call = calls.get(i);
            var inverse = inverses.get(call.toolName());
            if (inverse == null) {
                withoutInverse.add(call);
                continue;
            }
            try {
                if (inverse instanceof KeyedTool keyed) {
                    keyed.execute(call.arguments(), idempotencyKeys.apply(call));
                } else {
                    inverse.execute(call.arguments());
                }
                performed.add(new InverseCall(call, inverse.name()));
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                LOG.warn(
                        "Inverse tool '{}' failed to undo call '{}' of '{}': {}",
                        inverse.name(),
                        call.id(),
                        call.toolName(),
                        e.toString());
                failures.add(new InverseFailure(call, inverse.name(), e));
            }
        }
        return new UndoResult(performed, failures, withoutInverse);
    }

    /** Tool name → inverse tool, in registration order. */
    public Map<String, Tool> inverses() {
        return inverses;
    }

    @Override
    public String toString() {
        var pairs = new StringBuilder();
        inverses.forEach((tool, inverse) -> pairs.append(pairs.length() == 0 ? "" : ", ")
                .append(tool)
                .append(" -> ")
                .append(inverse.name()));
        return "RollbackToolRegistry[" + pairs + "]";
    }

    /** Collects tool/inverse pairs; each tool may be registered once. */
    public static final class Builder {
        private final Map<String, Tool> inverses = new LinkedHashMap<>();

        private Builder() {}

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

        /**
         * Registers an inverse written as a lambda: {@code registerRollback("createUser", "removeUser", args -> …)}.
         */
        public Builder registerRollback(String toolName, String inverseName, Tool.ToolFunction inverse) {
            return registerRollback(toolName, Tool.of(inverseName, inverse));
        }

        public RollbackToolRegistry build() {
            return new RollbackToolRegistry(Collections.unmodifiableMap(new LinkedHashMap<>(inverses)));
        }
    }
}
