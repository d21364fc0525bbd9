package dev.agentpersistence.spring.boot.autoconfigure;

import dev.agentpersistence.Tool;
import java.util.Objects;

/**
 * A tool and the inverse that undoes it; declare one as a bean per tool and the auto-configured
 * {@link dev.agentpersistence.RollbackToolRegistry} registers it.
 *
 * <pre>{@code
 * @Bean
 * RollbackToolPair createUserRollback(UserTools tools) {
 *     return RollbackToolPair.of(tools.createUser(), tools.deleteUser());
 * }
 * }</pre>
 *
 * @param toolName the name of the tool whose calls are undone
 * @param inverse the tool called with the same arguments to undo one call
 */
public record RollbackToolPair(String toolName, Tool inverse) {
    /** Checks both parts are present. */
    public RollbackToolPair {
        Objects.requireNonNull(toolName, "toolName");
        Objects.requireNonNull(inverse, "inverse");
    }

    /** The pair undoing {@code tool} with {@code inverse}. */
    public static RollbackToolPair of(Tool tool, Tool inverse) {
        return new RollbackToolPair(Objects.requireNonNull(tool, "tool").name(), inverse);
    }
}
