package dev.agentpersistence.benchmarks.chatmemory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.benchmarks.chatmemory.MeasuredChatMemory.Database;
import java.nio.file.Path;
import java.sql.Connection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.messages.Message;
import org.sqlite.SQLiteDataSource;

/**
 * The chat memory measurement's parts, on SQLite: the counter counts what it should, both stores get the same
 * conversation.
 */
class ChatMemoryWorkloadTest {
    @TempDir
    Path dir;

    @Test
    void theCounterCountsTheValuesBoundToWritesOnly() throws Exception {
        var source = new SQLiteDataSource();
        source.setUrl("jdbc:sqlite:" + dir.resolve("count.db"));
        var counter = new WriteCounter();
        try (Connection connection = counter.wrap(source).getConnection()) {
            connection.createStatement().execute("CREATE TABLE t (a TEXT, b BLOB, c INTEGER)");
            try (var insert = connection.prepareStatement("INSERT INTO t VALUES (?, ?, ?)")) {
                insert.setString(1, "héllo"); // 6 bytes in UTF-8
                insert.setBytes(2, new byte[10]);
                insert.setLong(3, 7); // 8
                insert.executeUpdate();
            }
            try (var select = connection.prepareStatement("SELECT * FROM t WHERE a = ?")) {
                select.setString(1, "not counted");
                select.executeQuery().close();
            }
        }
        assertThat(counter.bytes()).isEqualTo(6 + 10 + 8);
        assertThat(counter.statements()).isEqualTo(1);
    }

    @Test
    void bothStoresHoldTheSameConversationAndOursWritesLess() throws Exception {
        var workload = new ChatMemoryWorkload(30, 0);
        try (var spring = MeasuredChatMemory.springAi(Database.SQLITE, null, dir);
                var ours = MeasuredChatMemory.ours(Database.SQLITE, null, dir, "bench_")) {
            var springResult = workload.run(spring, "c");
            var oursResult = workload.run(ours, "c");

            assertThat(ours.repository().findByConversationId("c"))
                    .extracting(Message::getText)
                    .hasSize(60)
                    .containsExactlyElementsOf(spring.repository().findByConversationId("c").stream()
                            .map(Message::getText)
                            .toList());
            assertThat(oursResult.bytesWritten()).isPositive().isLessThan(springResult.bytesWritten());
            assertThat(springResult.turnBytes()).hasSize(30);
        }
    }
}
