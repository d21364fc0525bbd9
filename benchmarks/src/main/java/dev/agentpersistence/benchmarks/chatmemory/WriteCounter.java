package dev.agentpersistence.benchmarks.chatmemory;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * Counts what a {@link DataSource}'s users write: the bytes of every value bound to an {@code INSERT}, {@code UPDATE},
 * {@code DELETE} or {@code MERGE} statement (text as UTF-8, binary as its length, numbers and times as 8 bytes,
 * booleans as 1, {@code NULL} as 0), each batch row counted, and the number of such statements executed. Reads, DDL and
 * transaction control are not counted. The same counter for both stores makes the figures comparable whatever the
 * database does with the rows.
 */
public final class WriteCounter {
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong statements = new AtomicLong();

    /** Bytes of values bound to write statements so far. */
    public long bytes() {
        return bytes.get();
    }

    /** Write statements (or batch rows) executed so far. */
    public long statements() {
        return statements.get();
    }

    /** {@code dataSource}, with every connection it hands out counted here. */
    public DataSource wrap(DataSource dataSource) {
        return proxy(DataSource.class, dataSource, (target, method, args) -> {
            Object result = invoke(target, method, args);
            return result instanceof Connection connection ? connection(connection) : result;
        });
    }

    private Connection connection(Connection connection) {
        return proxy(Connection.class, connection, (target, method, args) -> {
            Object result = invoke(target, method, args);
            if (result instanceof PreparedStatement prepared && args != null && args[0] instanceof String sql) {
                return isWrite(sql) ? preparedWrite(prepared) : result;
            }
            if (result instanceof Statement statement && !(result instanceof PreparedStatement)) {
                return plain(statement);
            }
            return result;
        });
    }

    private PreparedStatement preparedWrite(PreparedStatement statement) {
        return proxy(PreparedStatement.class, statement, (target, method, args) -> {
            String name = method.getName();
            if (name.startsWith("set") && args != null && args.length >= 2 && args[0] instanceof Integer) {
                bytes.addAndGet(sizeOf(name, args[1]));
            } else if (name.equals("addBatch") || name.startsWith("execute") && (args == null || args.length == 0)) {
                statements.incrementAndGet();
            }
            return invoke(target, method, args);
        });
    }

    /** Unprepared statements: a write's SQL text carries its values. */
    private Statement plain(Statement statement) {
        return proxy(Statement.class, statement, (target, method, args) -> {
            if (method.getName().startsWith("execute")
                    && args != null
                    && args.length >= 1
                    && args[0] instanceof String sql
                    && isWrite(sql)) {
                bytes.addAndGet(sql.getBytes(StandardCharsets.UTF_8).length);
                statements.incrementAndGet();
            }
            return invoke(target, method, args);
        });
    }

    private static long sizeOf(String setter, Object value) {
        if (value == null || setter.equals("setNull")) {
            return 0;
        }
        if (value instanceof String text) {
            return text.getBytes(StandardCharsets.UTF_8).length;
        }
        if (value instanceof byte[] data) {
            return data.length;
        }
        if (value instanceof Boolean) {
            return 1;
        }
        if (value instanceof java.io.InputStream || value instanceof java.io.Reader) {
            throw new IllegalStateException("a stream was bound with " + setter + "; its size is not counted");
        }
        return 8; // numbers, dates, times
    }

    private static boolean isWrite(String sql) {
        String head = sql.stripLeading().toUpperCase(Locale.ROOT);
        return head.startsWith("INSERT")
                || head.startsWith("UPDATE")
                || head.startsWith("DELETE")
                || head.startsWith("MERGE")
                || head.startsWith("REPLACE")
                || head.startsWith("WITH")
                        && (head.contains(" INSERT ") || head.contains(" UPDATE ") || head.contains(" DELETE "));
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Class<T> type, T target, Handler<T> handler) {
        InvocationHandler invocation = (proxy, method, args) -> handler.handle(target, method, args);
        return (T) Proxy.newProxyInstance(WriteCounter.class.getClassLoader(), new Class<?>[] {type}, invocation);
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @FunctionalInterface
    private interface Handler<T> {
        Object handle(T target, Method method, Object[] args) throws Throwable;
    }
}
