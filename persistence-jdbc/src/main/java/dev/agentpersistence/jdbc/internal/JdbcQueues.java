package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.StorageConfigurationException;
import dev.agentpersistence.queue.QueueItem;
import dev.agentpersistence.queue.QueueStore;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Native queues in the table {@code <prefix>queue_items} (schema version 5): one row per item, a write one conditional
 * {@code INSERT} (the primary key refuses a second first write) or {@code UPDATE … WHERE version = ?}, so writers of
 * different items never wait for each other. A store whose schema predates the table reads as empty queues and refuses
 * writes with a message that says how to add it.
 */
final class JdbcQueues implements QueueStore {
    private static final String COLUMNS = "item_id, version, submitted_at, runnable_at, finished, payload";
    private static final int DELETE_BATCH = 500;
    private static final String NOT_HELD = " AND (held_until IS NULL OR held_until <= ?)";

    private final JdbcDatabase database;
    private final Tables tables;
    /** Whether the table was seen to exist; read once, as migrations only add it. */
    private volatile Boolean tableExists;

    JdbcQueues(JdbcDatabase database) {
        this.database = database;
        this.tables = database.tables();
    }

    @Override
    public List<QueueItem> items(String queue) {
        if (!tableExists()) {
            return List.of();
        }
        return database.read(
                "queueItems",
                c -> Sql.list(
                        c,
                        "SELECT " + COLUMNS + " FROM " + tables.queueItems()
                                + " WHERE queue_name = ? ORDER BY submitted_at, item_id",
                        JdbcQueues::item,
                        queue));
    }

    @Override
    public Optional<QueueItem> item(String queue, String id) {
        if (!tableExists()) {
            return Optional.empty();
        }
        return database.read(
                "queueItem",
                c -> Sql.first(
                        c,
                        "SELECT " + COLUMNS + " FROM " + tables.queueItems() + " WHERE queue_name = ? AND item_id = ?",
                        JdbcQueues::item,
                        queue,
                        id));
    }

    @Override
    public List<QueueItem> runnable(String queue, Instant now, int limit) {
        if (!tableExists()) {
            return List.of();
        }
        long at = QueueItem.toEpochNanos(now);
        return database.read("queueRunnable", c -> runnable(c, queue, at, limit, ""));
    }

    /** The oldest runnable items nobody holds, read with {@code lock} at the end of the query. */
    private List<QueueItem> runnable(Connection connection, String queue, long now, int limit, String lock)
            throws SQLException {
        return Sql.list(
                connection,
                "SELECT " + COLUMNS + " FROM " + tables.queueItems()
                        + " WHERE queue_name = ? AND finished = 0 AND runnable_at <= ?" + NOT_HELD
                        + " ORDER BY submitted_at, item_id LIMIT ?" + lock,
                JdbcQueues::item,
                queue,
                now,
                now,
                limit);
    }

    /**
     * One transaction: the oldest runnable rows nobody holds, read with the dialect's
     * {@link Dialect#skippingLockedRead()} (rows another claim has locked are passed over on PostgreSQL and MariaDB),
     * then each held by an {@code UPDATE} that checks again that nobody holds it; only the rows it changed are claimed.
     */
    @Override
    public List<QueueItem> claim(String queue, Instant now, Instant until, int limit) {
        requireTable();
        long at = QueueItem.toEpochNanos(now);
        long end = QueueItem.toEpochNanos(until);
        String lock = database.skippingLockedRead();
        return database.write("queueClaim", false, c -> {
            var claimed = new ArrayList<QueueItem>();
            for (QueueItem candidate : runnable(c, queue, at, limit, lock)) {
                int held = Sql.update(
                        c,
                        "UPDATE " + tables.queueItems() + " SET held_until = ? WHERE queue_name = ? AND item_id = ?"
                                + NOT_HELD,
                        end,
                        queue,
                        candidate.id(),
                        at);
                if (held == 1) {
                    claimed.add(candidate);
                }
            }
            return claimed;
        });
    }

    @Override
    public void hold(String queue, String id, Instant until) {
        requireTable();
        long end = QueueItem.toEpochNanos(until);
        database.write(
                "queueHold",
                true,
                c -> Sql.update(
                        c,
                        "UPDATE " + tables.queueItems() + " SET held_until = ? WHERE queue_name = ? AND item_id = ?",
                        end,
                        queue,
                        id));
    }

    /**
     * Version 1: an {@code INSERT} the primary key refuses when the item exists; later versions: an {@code UPDATE} that
     * changes the row only while it has the version before.
     */
    @Override
    public boolean write(String queue, QueueItem item) {
        requireTable();
        Object runnableAt = item.runnableAt() == null ? Sql.NULL_BIGINT : QueueItem.toEpochNanos(item.runnableAt());
        long submittedAt = QueueItem.toEpochNanos(item.submittedAt());
        int finished = item.finished() ? 1 : 0;
        if (item.version() == 1) {
            return database.insert(
                    "queueWrite",
                    true,
                    c -> Sql.update(
                            c,
                            "INSERT INTO " + tables.queueItems() + " (queue_name, " + COLUMNS
                                    + ") VALUES (?, ?, ?, ?, ?, ?, ?)",
                            queue,
                            item.id(),
                            item.version(),
                            submittedAt,
                            runnableAt,
                            finished,
                            item.body()));
        }
        return database.write(
                        "queueWrite",
                        true,
                        c -> Sql.update(
                                c,
                                "UPDATE " + tables.queueItems() + " SET version = ?, submitted_at = ?, runnable_at = ?,"
                                        + " finished = ?, payload = ? WHERE queue_name = ? AND item_id = ?"
                                        + " AND version = ?",
                                item.version(),
                                submittedAt,
                                runnableAt,
                                finished,
                                item.body(),
                                queue,
                                item.id(),
                                item.version() - 1))
                == 1;
    }

    /** Reads the ids of the finished items in the queue's order, then deletes all but the last {@code keep}. */
    @Override
    public int deleteFinished(String queue, int keep) {
        requireTable();
        List<String> finished = database.read(
                "queueFinished",
                c -> Sql.list(
                        c,
                        "SELECT item_id FROM " + tables.queueItems()
                                + " WHERE queue_name = ? AND finished = 1 ORDER BY submitted_at, item_id",
                        rows -> rows.getString(1),
                        queue));
        List<String> doomed = finished.subList(0, Math.max(0, finished.size() - keep));
        int deleted = 0;
        for (int from = 0; from < doomed.size(); from += DELETE_BATCH) {
            var batch = doomed.subList(from, Math.min(doomed.size(), from + DELETE_BATCH));
            deleted += database.write("queueDeleteFinished", true, c -> delete(c, queue, batch));
        }
        return deleted;
    }

    private int delete(Connection connection, String queue, List<String> ids) throws SQLException {
        return Sql.update(
                connection,
                "DELETE FROM " + tables.queueItems() + " WHERE queue_name = ? AND finished = 1 AND item_id IN ("
                        + Sql.placeholders(ids.size()) + ")",
                Sql.values(queue, ids));
    }

    private boolean tableExists() {
        Boolean exists = tableExists;
        if (exists == null) {
            exists = database.read(
                    "queueTable",
                    c -> Sql.number(c, "SELECT COUNT(*) FROM " + tables.schemaVersion() + " WHERE version = 5")
                                    .orElse(0L)
                            > 0);
            tableExists = exists;
        }
        return exists;
    }

    private void requireTable() {
        if (!tableExists()) {
            throw new StorageConfigurationException("The table " + tables.queueItems() + " of native queues does not"
                    + " exist (schema version 5 is missing); open the store once for writing with migration on to"
                    + " add it");
        }
    }

    private static QueueItem item(ResultSet rs) throws SQLException {
        long runnableAt = rs.getLong("runnable_at");
        Instant runnable = rs.wasNull() ? null : QueueItem.ofEpochNanos(runnableAt);
        return new QueueItem(
                rs.getString("item_id"),
                rs.getLong("version"),
                QueueItem.ofEpochNanos(rs.getLong("submitted_at")),
                runnable,
                rs.getInt("finished") != 0,
                rs.getBytes("payload"));
    }
}
