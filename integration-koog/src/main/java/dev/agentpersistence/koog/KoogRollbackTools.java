package dev.agentpersistence.koog;

import ai.koog.agents.core.tools.Tool;
import dev.agentpersistence.RollbackToolRegistry;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Our {@link RollbackToolRegistry} as Koog's ({@code ai.koog.agents.snapshot.feature.RollbackToolRegistry}), so that a
 * rollback through Koog's API ({@code Persistence.rollbackToCheckpoint}) calls our inverse tools:
 *
 * <pre>{@code
 * .install(Persistence.Feature, config -> {
 *     config.setStorage(KoogCheckpointStorage.of(provider));
 *     config.setRollbackToolRegistry(KoogRollbackTools.registry(rollbackTools));
 * })
 * }</pre>
 *
 * <p>Koog undoes the tool calls in the message history after the checkpoint, newest first, looking each tool up by
 * name; our inverse gets the call's arguments as JSON. A failing inverse is logged and does not stop the others.
 */
public final class KoogRollbackTools {
    private KoogRollbackTools() {}

    /** Koog's rollback registry calling the inverses of {@code tools}. */
    public static ai.koog.agents.snapshot.feature.RollbackToolRegistry registry(RollbackToolRegistry tools) {
        Objects.requireNonNull(tools, "tools");
        Map<Tool<?, ?>, Tool<?, ?>> inverses = new LinkedHashMap<>();
        tools.inverses()
                .forEach((toolName, inverse) ->
                        inverses.put(InverseTool.undoing(toolName), InverseTool.running(inverse)));
        return new ai.koog.agents.snapshot.feature.RollbackToolRegistry(inverses);
    }
}
