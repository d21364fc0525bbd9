package dev.agentpersistence.jdbc.internal;

/** How a database takes a save's rows (the checkpoint, its expiry row and its metadata rows). */
public enum SaveForm {
    /**
     * One statement per table: a checkpoint without metadata and expiry is one {@code INSERT} in autocommit; otherwise
     * the statements run in a transaction the caller provides.
     */
    STATEMENTS,
    /**
     * PostgreSQL: without an expiry the checkpoint and its metadata rows are one {@code WITH c AS (INSERT ... RETURNING
     * ...) INSERT ... SELECT ... FROM c}, atomic in autocommit; with one, statements in a transaction.
     */
    CTE,
    /**
     * MariaDB: every save is one compound statement, {@code BEGIN NOT ATOMIC ... END}, that starts its transaction,
     * writes every row and commits, or on any error rolls back and signals that error again: one round trip, atomic in
     * autocommit.
     */
    BLOCK
}
