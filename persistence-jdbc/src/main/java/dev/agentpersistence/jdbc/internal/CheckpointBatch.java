package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.backend.StoredCheckpoint;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;

/**
 * The rows of many saves written with JDBC batches, in a transaction the caller provides: the checkpoint rows, then
 * their expiry rows, then their metadata rows, each table one {@code executeBatch}. The rows are those
 * {@link CheckpointInsert} writes for each record on its own, so a batch stores the same form.
 */
final class CheckpointBatch {
    private final String checkpointSql;
    private final String deleteExpirySql;
    private final String expirySql;
    private final String metadataSql;

    CheckpointBatch(Tables tables) {
        Objects.requireNonNull(tables, "tables");
        this.checkpointSql = CheckpointInsert.checkpointText(tables);
        this.deleteExpirySql = CheckpointInsert.deleteExpiryText(tables);
        this.expirySql = CheckpointInsert.expiryText(tables);
        this.metadataSql = CheckpointInsert.metadataText(tables, 1);
    }

    /**
     * Writes every row of {@code records}. A duplicate key fails the batch with the driver's exception for the failing
     * row (not the driver's batch wrapper), so that the caller can tell it from other failures and roll back.
     */
    void insert(Connection connection, List<StoredCheckpoint> records) throws SQLException {
        try {
            try (PreparedStatement statement = connection.prepareStatement(checkpointSql)) {
                for (StoredCheckpoint record : records) {
                    CheckpointInsert.bindCheckpoint(statement, record);
                    statement.addBatch();
                }
                statement.executeBatch();
            }
            if (records.stream().anyMatch(record -> record.expiresAt() != null)) {
                writeExpiry(connection, records);
            }
            if (records.stream().anyMatch(record -> !record.metadata().isEmpty())) {
                writeMetadata(connection, records);
            }
        } catch (BatchUpdateException e) {
            throw rowFailure(e);
        }
    }

    private void writeExpiry(Connection connection, List<StoredCheckpoint> records) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement(deleteExpirySql);
                PreparedStatement insert = connection.prepareStatement(expirySql)) {
            for (StoredCheckpoint record : records) {
                if (record.expiresAt() != null) {
                    delete.setString(1, record.agentId());
                    delete.setString(2, record.checkpointId());
                    delete.addBatch();
                    insert.setString(1, record.agentId());
                    insert.setString(2, record.checkpointId());
                    insert.setLong(3, record.expiresAt().toEpochMilli());
                    insert.addBatch();
                }
            }
            delete.executeBatch();
            insert.executeBatch();
        }
    }

    private void writeMetadata(Connection connection, List<StoredCheckpoint> records) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(metadataSql)) {
            for (StoredCheckpoint record : records) {
                for (var entry : record.metadata().entrySet()) {
                    statement.setString(1, record.agentId());
                    statement.setString(2, record.checkpointId());
                    statement.setBytes(3, FilterSql.utf8(entry.getKey()));
                    statement.setBytes(4, FilterSql.utf8(entry.getValue()));
                    statement.addBatch();
                }
            }
            statement.executeBatch();
        }
    }

    /** The failure of the row that failed the batch: the wrapper's cause or next exception when it has one. */
    private static SQLException rowFailure(BatchUpdateException batch) {
        if (batch.getCause() instanceof SQLException cause) {
            cause.addSuppressed(batch);
            return cause;
        }
        SQLException next = batch.getNextException();
        if (next != null && batch.getSQLState() == null) {
            next.addSuppressed(batch);
            return next;
        }
        return batch;
    }
}
