package dev.agentpersistence.jdbc.internal;

import java.util.Objects;

/**
 * The names of the provider's tables and indexes for one table prefix. The prefix is validated by the configuration
 * (lower-case letters, digits, {@code _}), so the names are safe to put in SQL.
 *
 * @param prefix the table prefix, such as {@code agent_}
 */
public record Tables(String prefix) {
    public Tables {
        Objects.requireNonNull(prefix, "prefix");
    }

    /** One row per checkpoint: the index columns and the codec document. */
    public String checkpoints() {
        return prefix + "checkpoints";
    }

    /** One row per metadata entry of a checkpoint. */
    public String metadata() {
        return prefix + "checkpoint_metadata";
    }

    /** One row per applied schema migration. */
    public String schemaVersion() {
        return prefix + "schema_version";
    }

    /** The unique index on {@code (agent_id, version DESC)}. */
    public String versionIndex() {
        return prefix + "checkpoints_version_uq";
    }

    /** The index of the metadata table on {@code (agent_id, checkpoint_id)}. */
    public String metadataIndex() {
        return prefix + "checkpoint_metadata_cp_idx";
    }

    /** One row per history segment of an agent. */
    public String historySegments() {
        return prefix + "history_segments";
    }

    /** One row per checkpoint saved with a time to live: when it expires. */
    public String checkpointExpiry() {
        return prefix + "checkpoint_expiry";
    }

    /** The index of the expiry table on {@code expires_at}. */
    public String expiryIndex() {
        return prefix + "checkpoint_expiry_idx";
    }

    /** One row per item of a native queue. */
    public String queueItems() {
        return prefix + "queue_items";
    }

    /** The index of the queue table on {@code (queue_name, submitted_at, item_id)}: the queue's order. */
    public String queueOrderIndex() {
        return prefix + "queue_items_order_idx";
    }

    /** A name for database-wide locks guarding this prefix's schema. */
    public String lockName() {
        return "agent-persistence:" + prefix;
    }
}
