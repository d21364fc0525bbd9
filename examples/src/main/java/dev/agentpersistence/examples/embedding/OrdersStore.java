package dev.agentpersistence.examples.embedding;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A real side effect for the agent's tools: orders in a SQLite database file. {@link #place} and {@link #cancel} are
 * each other's inverse, keyed by an order id the agent chooses, so a rollback can cancel exactly the orders a
 * rolled-back tool call placed. Both are idempotent.
 */
public final class OrdersStore {
    private final String url;

    /** A store in the SQLite file {@code database}, created with its table when missing. */
    public OrdersStore(Path database) {
        this.url = "jdbc:sqlite:" + Objects.requireNonNull(database, "database").toAbsolutePath();
        try (Connection connection = connect()) {
            connection
                    .createStatement()
                    .execute("CREATE TABLE IF NOT EXISTS orders ("
                            + "order_id TEXT PRIMARY KEY, item TEXT NOT NULL, quantity INTEGER NOT NULL)");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the orders table in " + url, e);
        }
    }

    /** One order. */
    public record Order(String orderId, String item, int quantity) {
        @Override
        public String toString() {
            return item + " x" + quantity + " (" + orderId + ")";
        }
    }

    /** Places an order; placing the same order id again changes nothing. */
    public void place(Order order) throws SQLException {
        Objects.requireNonNull(order, "order");
        try (Connection connection = connect();
                PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO orders (order_id, item, quantity) VALUES (?, ?, ?) ON CONFLICT (order_id) DO "
                                + "NOTHING")) {
            insert.setString(1, order.orderId());
            insert.setString(2, order.item());
            insert.setInt(3, order.quantity());
            insert.executeUpdate();
        }
    }

    /** Cancels an order; returns whether there was one to cancel. */
    public boolean cancel(String orderId) throws SQLException {
        try (Connection connection = connect();
                PreparedStatement delete = connection.prepareStatement("DELETE FROM orders WHERE order_id = ?")) {
            delete.setString(1, orderId);
            return delete.executeUpdate() > 0;
        }
    }

    /** Every order, by id. */
    public List<Order> orders() {
        try (Connection connection = connect();
                ResultSet rows = connection
                        .createStatement()
                        .executeQuery("SELECT order_id, item, quantity FROM orders ORDER BY order_id")) {
            var orders = new ArrayList<Order>();
            while (rows.next()) {
                orders.add(new Order(rows.getString(1), rows.getString(2), rows.getInt(3)));
            }
            return orders;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the orders in " + url, e);
        }
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(url);
    }

    @Override
    public String toString() {
        return "OrdersStore[" + url + "]";
    }
}
