package dev.agentpersistence.jdbc.internal;

import dev.agentpersistence.StorageConfigurationException;
import dev.agentpersistence.queue.QueueItem;
import dev.agentpersistence.queue.QueueStore;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Update;

/**
 * Native queues in the table {@code <prefix>queue_items} (schema version 5): one row per item, a write one conditional
 * {@code INSERT} (the primary key refuses a second first write) or {@code UPDATE … WHERE version = ?}, so writers of
 * different items never wait for each other. A store whose schema predates the table reads as empty queues and refuses
 * writes with a message that says how to add it.
 */
final class JdbcQueues implements QueueStore {
    private static final String COLUMNS = "item_id, version, submitted_at, runnable_at, finished, payload";
    private static final int DELETE_BATCH = 500;
    private static final String NOT_HELD = " AND (held_until IS NULL OR held_until <= :now)";

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
                h -> h.createQuery("SELECT " + COLUMNS + " FROM " + tables.queueItems()
                                + " WHERE queue_name = :queue ORDER BY submitted_at, item_id")
                        .bind("queue", queue)
                        .map((rs, ctx) -> item(rs))
                        .list());
    }

    @Override
    public Optional<QueueItem> item(String queue, String id) {
        if (!tableExists()) {
            return Optional.empty();
        }
        return database.read(
                "queueItem",
                h -> h.createQuery("SELECT " + COLUMNS + " FROM " + tables.queueItems()
                                + " WHERE queue_name = :queue AND item_id = :id")
                        .bind("queue", queue)
                        .bind("id", id)
                        .map((rs, ctx) -> item(rs))
                        .findOne());
    }

    @Override
    public List<QueueItem> runnable(String queue, Instant now, int limit) {
        if (!tableExists()) {
            return List.of();
        }
        return database.read(
                "queueRunnable",
                h -> h.createQuery("SELECT " + COLUMNS + " FROM " + tables.queueItems()
                                + " WHERE queue_name = :queue AND finished = 0 AND runnable_at <= :now" + NOT_HELD
                                + " ORDER BY submitted_at, item_id LIMIT :limit")
                        .bind("queue", queue)
                        .bind("now", QueueItem.toEpochNanos(now))
                        .bind("limit", limit)
                        .map((rs, ctx) -> item(rs))
                        .list());
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
        return database.write("queueClaim", false, h -> {
            List<QueueItem> candidates = h.createQuery("SELECT " + COLUMNS + " FROM " + tables.queueItems()
                            + " WHERE queue_name = :queue AND finished = 0 AND runnable_at <= :now" + NOT_HELD
                            + " ORDER BY submitted_at, item_id LIMIT :limit" + lock)
                    .bind("queue", queue)
                    .bind("now", at)
                    .bind("limit", limit)
                    .map((rs, ctx) -> item(rs))
                    .list();
            var claimed = new ArrayList<QueueItem>();
            for (QueueItem candidate : candidates) {
                int held = h.createUpdate("UPDATE " + tables.queueItems() + " SET held_until = :until"
                                + " WHERE queue_name = :queue AND item_id = :id" + NOT_HELD)
                        .bind("until", end)
                        .bind("queue", queue)
                        .bind("id", candidate.id())
                        .bind("now", at)
                        .execute();
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
                h -> h.createUpdate("UPDATE " + tables.queueItems()
                                + " SET held_until = :until WHERE queue_name = :queue AND item_id = :id")
                        .bind("until", end)
                        .bind("queue", queue)
                        .bind("id", id)
                        .execute());
    }

    /**
     * Version 1: an {@code INSERT} the primary key refuses when the item exists; later versions: an {@code UPDATE} that
     * changes the row only while it has the version before.
     */
    @Override
    public boolean write(String queue, QueueItem item) {
        requireTable();
        if (item.version() == 1) {
            return database.insert(
                    "queueWrite",
                    h -> bindItem(
                                    h.createUpdate("INSERT INTO " + tables.queueItems() + " (queue_name, " + COLUMNS
                                            + ") VALUES (:queue, :id, :version, :submittedAt, :runnableAt, :finished,"
                                            + " :body)"),
                                    queue,
                                    item)
                            .execute());
        }
        return database.write(
                        "queueWrite",
                        true,
                        h -> bindItem(
                                        h.createUpdate("UPDATE " + tables.queueItems()
                                                + " SET version = :version, submitted_at = :submittedAt,"
                                                + " runnable_at = :runnableAt, finished = :finished, payload = :body"
                                                + " WHERE queue_name = :queue AND item_id = :id"
                                                + " AND version = :expected"),
                                        queue,
                                        item)
                                .bind("expected", item.version() - 1)
                                .execute())
                == 1;
    }

    /** Binds the queue and every column of {@code item}. */
    private static Update bindItem(Update update, String queue, QueueItem item) {
        return update.bind("queue", queue)
                .bind("id", item.id())
                .bind("version", item.version())
                .bind("submittedAt", QueueItem.toEpochNanos(item.submittedAt()))
                .bind("runnableAt", item.runnableAt() == null ? null : QueueItem.toEpochNanos(item.runnableAt()))
                .bind("finished", item.finished() ? 1 : 0)
                .bind("body", item.body());
    }

    /** Reads the ids of the finished items in the queue's order, then deletes all but the last {@code keep}. */
    @Override
    public int deleteFinished(String queue, int keep) {
        requireTable();
        List<String> finished = database.read(
                "queueFinished",
                h -> h.createQuery("SELECT item_id FROM "
                                + tables.queueItems() + " WHERE queue_name = :queue AND finished = 1"
                                + " ORDER BY submitted_at, item_id")
                        .bind("queue", queue)
                        .mapTo(String.class)
                        .list());
        List<String> doomed = finished.subList(0, Math.max(0, finished.size() - keep));
        int deleted = 0;
        for (int from = 0; from < doomed.size(); from += DELETE_BATCH) {
            var batch = doomed.subList(from, Math.min(doomed.size(), from + DELETE_BATCH));
            deleted += database.write("queueDeleteFinished", true, h -> delete(h, queue, batch));
        }
        return deleted;
    }

    private int delete(Handle handle, String queue, List<String> ids) {
        return handle.createUpdate("DELETE FROM " + tables.queueItems()
                        + " WHERE queue_name = :queue AND finished = 1 AND item_id IN (<ids>)")
                .bind("queue", queue)
                .bindList("ids", ids)
                .execute();
    }

    private boolean tableExists() {
        Boolean exists = tableExists;
        if (exists == null) {
            exists = database.read(
                    "queueTable",
                    h -> h.createQuery("SELECT COUNT(*) FROM " + tables.schemaVersion() + " WHERE version = 5")
                                    .mapTo(Integer.class)
                                    .one()
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
