package dev.agentpersistence.jdbc.internal;

import java.util.List;
import java.util.Objects;

/**
 * One step of the schema. Statements must be idempotent ({@code IF NOT EXISTS}) so that a step interrupted on a
 * database without transactional DDL can simply run again.
 *
 * @param version 1-based, strictly increasing
 * @param description what the step does, recorded in the schema version table
 * @param statements DDL run in order
 */
public record Migration(int version, String description, List<String> statements) {
    public Migration {
        if (version < 1) {
            throw new IllegalArgumentException("version must be >= 1 but was " + version);
        }
        Objects.requireNonNull(description, "description");
        statements = List.copyOf(statements);
    }
}
