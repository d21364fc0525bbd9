package dev.agentpersistence.jdbc.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The schema's DDL written with one dialect's column types.
 *
 * @param idType type of agent and checkpoint ids (up to 256 UTF-16 characters, compared exactly)
 * @param utf8Type type of node ids and metadata keys and values, stored as their UTF-8 bytes so that they compare byte
 *     for byte on every database (no collation, and PostgreSQL's {@code text}, which refuses U+0000, is avoided)
 * @param binaryType type of the codec document
 * @param tableOptions appended to every {@code CREATE TABLE}, such as engine and collation
 * @param inlineIndexes whether indexes are declared inside {@code CREATE TABLE} (MySQL has no {@code CREATE INDEX IF
 *     NOT EXISTS}) rather than as separate statements
 * @param plannedForeignKeys whether the database plans foreign-key checks from table statistics (PostgreSQL), so that
 *     migration 4 drops the metadata table's key; elsewhere a check always probes the referenced primary key and the
 *     key stays
 */
public record SchemaDdl(
        String idType,
        String utf8Type,
        String binaryType,
        String tableOptions,
        boolean inlineIndexes,
        boolean plannedForeignKeys) {
    public SchemaDdl {
        Objects.requireNonNull(idType, "idType");
        Objects.requireNonNull(utf8Type, "utf8Type");
        Objects.requireNonNull(binaryType, "binaryType");
        Objects.requireNonNull(tableOptions, "tableOptions");
    }

    /**
     * The newest migration a read-only reader needs; later ones add tables that a reader of a store without them reads
     * as empty, so a store written before them still opens read-only.
     */
    public static final int READERS_NEED = 4;

    /** The table recording applied migrations. */
    public String schemaVersionTable(Tables t) {
        return "CREATE TABLE IF NOT EXISTS " + t.schemaVersion() + " ("
                + "version INTEGER NOT NULL PRIMARY KEY, "
                + "description VARCHAR(200) NOT NULL, "
                + "applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)" + tableOptions;
    }

    /**
     * Version 1: the checkpoint table, keyed by {@code (agent_id, checkpoint_id)} with a unique {@code (agent_id,
     * version DESC)} index (latest is one index probe), and the metadata table.
     */
    public List<String> version1(Tables t) {
        var statements = new ArrayList<String>();
        String versionIndex = "UNIQUE " + (inlineIndexes ? "KEY " : "INDEX ") + t.versionIndex();
        statements.add("CREATE TABLE IF NOT EXISTS " + t.checkpoints() + " ("
                + "agent_id " + idType + " NOT NULL, "
                + "checkpoint_id " + idType + " NOT NULL, "
                + "version BIGINT NOT NULL, "
                + "created_at_seconds BIGINT NOT NULL, "
                + "created_at_nanos INTEGER NOT NULL, "
                + "node_id " + utf8Type + ", "
                + "tombstone SMALLINT NOT NULL, "
                + "payload " + binaryType + " NOT NULL, "
                + "CONSTRAINT " + t.checkpoints() + "_pk PRIMARY KEY (agent_id, checkpoint_id)"
                + (inlineIndexes ? ", " + versionIndex + " (agent_id, version DESC)" : "")
                + ")" + tableOptions);
        if (!inlineIndexes) {
            statements.add("CREATE " + versionIndex.replace("INDEX ", "INDEX IF NOT EXISTS ") + " ON " + t.checkpoints()
                    + " (agent_id, version DESC)");
        }
        statements.add("CREATE TABLE IF NOT EXISTS " + t.metadata() + " ("
                + "agent_id " + idType + " NOT NULL, "
                + "checkpoint_id " + idType + " NOT NULL, "
                + "meta_key " + utf8Type + " NOT NULL, "
                + "meta_value " + utf8Type + " NOT NULL, "
                + (inlineIndexes ? "KEY " + t.metadataIndex() + " (agent_id, checkpoint_id), " : "")
                + "CONSTRAINT " + t.metadata() + "_fk FOREIGN KEY (agent_id, checkpoint_id) "
                + "REFERENCES " + t.checkpoints() + " (agent_id, checkpoint_id)"
                + ")" + tableOptions);
        if (!inlineIndexes) {
            statements.add("CREATE INDEX IF NOT EXISTS " + t.metadataIndex() + " ON " + t.metadata()
                    + " (agent_id, checkpoint_id)");
        }
        return statements;
    }

    /**
     * Version 2: the history segment table, keyed by {@code (agent_id, segment_id)}, with the write time in epoch
     * milliseconds.
     */
    public List<String> version2(Tables t) {
        return List.of("CREATE TABLE IF NOT EXISTS " + t.historySegments() + " ("
                + "agent_id " + idType + " NOT NULL, "
                + "segment_id " + idType + " NOT NULL, "
                + "written_at BIGINT NOT NULL, "
                + "content " + binaryType + " NOT NULL, "
                + "CONSTRAINT " + t.historySegments() + "_pk PRIMARY KEY (agent_id, segment_id)"
                + ")" + tableOptions);
    }

    /**
     * Version 3: the checkpoint expiry table, keyed like checkpoints, with an index on {@code expires_at} (epoch
     * milliseconds), for the time to live. A table of its own rather than a column: an {@code ALTER TABLE} of the
     * checkpoint table would race with writers of other processes on databases without transactional DDL.
     */
    public List<String> version3(Tables t) {
        var statements = new ArrayList<String>();
        statements.add("CREATE TABLE IF NOT EXISTS " + t.checkpointExpiry() + " ("
                + "agent_id " + idType + " NOT NULL, "
                + "checkpoint_id " + idType + " NOT NULL, "
                + "expires_at BIGINT NOT NULL, "
                + (inlineIndexes ? "KEY " + t.expiryIndex() + " (expires_at), " : "")
                + "CONSTRAINT " + t.checkpointExpiry() + "_pk PRIMARY KEY (agent_id, checkpoint_id)"
                + ")" + tableOptions);
        if (!inlineIndexes) {
            statements.add(
                    "CREATE INDEX IF NOT EXISTS " + t.expiryIndex() + " ON " + t.checkpointExpiry() + " (expires_at)");
        }
        return statements;
    }

    /**
     * Version 4: where foreign-key checks are {@link #plannedForeignKeys planned from statistics}, the metadata table's
     * foreign key is dropped (elsewhere this version changes nothing). PostgreSQL plans the check of each metadata row
     * once per session; a plan made while the checkpoint table was small (just created, or analyzed then) scans the
     * whole table for every row saved, so a save slowed down as the table grew until the next {@code ANALYZE}. The
     * provider writes metadata rows only in the statement or transaction that writes their checkpoint, and deletes them
     * first, so the key guarded nothing its statements do not.
     */
    public List<String> version4(Tables t) {
        return plannedForeignKeys
                ? List.of("ALTER TABLE " + t.metadata() + " DROP CONSTRAINT IF EXISTS " + t.metadata() + "_fk")
                : List.of();
    }

    /**
     * Version 5: the table of native queues, one row per item keyed by {@code (queue_name, item_id)}, with the times
     * (and the end of a claim's hold, outside the item's version) in epoch nanoseconds and an index in the queue's
     * order. Readers do not need it ({@link #READERS_NEED}): a queue of a store without it is empty.
     */
    public List<String> version5(Tables t) {
        var statements = new ArrayList<String>();
        statements.add("CREATE TABLE IF NOT EXISTS " + t.queueItems() + " ("
                + "queue_name " + idType + " NOT NULL, "
                + "item_id " + idType + " NOT NULL, "
                + "version BIGINT NOT NULL, "
                + "submitted_at BIGINT NOT NULL, "
                + "runnable_at BIGINT, "
                + "finished SMALLINT NOT NULL, "
                + "held_until BIGINT, "
                + "payload " + binaryType + " NOT NULL, "
                + (inlineIndexes ? "KEY " + t.queueOrderIndex() + " (queue_name, submitted_at, item_id), " : "")
                + "CONSTRAINT " + t.queueItems() + "_pk PRIMARY KEY (queue_name, item_id)"
                + ")" + tableOptions);
        if (!inlineIndexes) {
            statements.add("CREATE INDEX IF NOT EXISTS " + t.queueOrderIndex() + " ON " + t.queueItems()
                    + " (queue_name, submitted_at, item_id)");
        }
        return statements;
    }

    /** Every migration, ascending. */
    public List<Migration> migrations(Tables t) {
        return List.of(
                new Migration(1, "checkpoints, metadata and their indexes", version1(t)),
                new Migration(2, "history segments", version2(t)),
                new Migration(3, "checkpoint expiry", version3(t)),
                new Migration(4, "no statistics-planned foreign key on metadata", version4(t)),
                new Migration(5, "native queues", version5(t)));
    }
}
