package dev.agentpersistence.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import dev.agentpersistence.tck.TestServices;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A statement the real MariaDB server refuses for exceeding {@code max_allowed_packet} (the server drops the
 * connection) is classified as too large, not as a lost connection: it is not retried and the database keeps working on
 * fresh connections.
 */
class MariaDbStatementTooLargeTest {

    @Test
    void anOversizedStatementIsNotRetriedAndTheDatabaseKeepsWorking() {
        var config = JdbcStorageConfig.custom()
                .url(TestServices.mariadbUrl(null))
                .migrate(false)
                .poolSize(2)
                .connectionTimeout(Duration.ofSeconds(10))
                .build();
        try (JdbcDatabase database = JdbcDatabase.pooled(config)) {
            long limit = database.statementLimit().orElseThrow();
            byte[] value = new byte[Math.toIntExact(limit + 1024)];
            Arrays.fill(value, (byte) 'x');
            assertThat(database.statementBytes(value)).isEqualTo(value.length);
            var attempts = new AtomicInteger();

            assertThatThrownBy(() -> database.read("oversized select", connection -> {
                        attempts.incrementAndGet();
                        return Sql.number(connection, "SELECT LENGTH(?)", (Object) value);
                    }))
                    .isInstanceOf(StatementTooLargeException.class)
                    .isNotInstanceOf(StorageUnavailableException.class)
                    .hasMessageContaining("max_allowed_packet");
            assertThat(attempts).as("attempts of an idempotent read").hasValue(1);

            for (int i = 0; i < 3; i++) {
                Optional<Long> one = database.read("select", connection -> Sql.number(connection, "SELECT 1"));
                assertThat(one).contains(1L);
            }
        }
    }

    @Test
    void escapedBytesCountTwiceForMariaDb() {
        byte[] value = {'a', 0, '\'', '"', '\\', 'b'};
        assertThat(MariaDbDialect.mariaDb().statementBytes(value)).isEqualTo(10);
    }
}
