package dev.agentpersistence.jdbc.internal;

import java.util.OptionalLong;
import java.util.function.Supplier;

/** The server's statement size limit, read once on first use and kept; empty when the database has none. */
final class StatementLimit {
    private final Supplier<OptionalLong> reader;
    private volatile OptionalLong known;

    /** Reads the limit with {@code reader} when first asked. */
    StatementLimit(Supplier<OptionalLong> reader) {
        this.reader = reader;
    }

    /** The limit in bytes, or empty. */
    OptionalLong get() {
        OptionalLong limit = known;
        if (limit == null) {
            limit = reader.get();
            known = limit;
        }
        return limit;
    }
}
