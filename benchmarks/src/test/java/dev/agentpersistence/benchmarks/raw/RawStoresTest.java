package dev.agentpersistence.benchmarks.raw;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RawStoresTest {
    @TempDir
    Path directory;

    @Test
    void fileStoreWritesOneFilePerKeyAndRefusesToOverwrite() throws Exception {
        var store = new RawFileStore(directory.resolve("raw"), true);
        store.write("a", new byte[] {1, 2, 3});
        assertThat(store.read("a")).containsExactly(1, 2, 3);
        assertThat(Files.readAllBytes(directory.resolve("raw").resolve("a"))).containsExactly(1, 2, 3);
        assertThatThrownBy(() -> store.write("a", new byte[] {4})).isInstanceOf(RuntimeException.class);
        store.delete(List.of("a"));
        assertThat(directory.resolve("raw").resolve("a")).doesNotExist();
    }

    @Test
    void sqliteStoreInsertsAndSelectsByKey() {
        var store = new RawJdbcStore(
                "jdbc:sqlite:" + directory.resolve("raw.db"),
                "raw_t",
                "(k TEXT NOT NULL PRIMARY KEY, v BLOB NOT NULL)",
                true);
        try {
            store.write("k1", new byte[] {9, 8});
            assertThat(store.read("k1")).containsExactly(9, 8);
            assertThatThrownBy(() -> store.write("k1", new byte[] {1})).isInstanceOf(IllegalStateException.class);
            store.delete(List.of("k1"));
            assertThatThrownBy(() -> store.read("k1")).isInstanceOf(IllegalStateException.class);
        } finally {
            store.close();
        }
    }

    @Test
    void mapStoreCopiesValues() {
        var store = new RawMapStore();
        byte[] value = {1};
        store.write("k", value);
        value[0] = 2;
        assertThat(store.read("k")).containsExactly(1);
        store.read("k")[0] = 3;
        assertThat(store.read("k")).containsExactly(1);
    }
}
