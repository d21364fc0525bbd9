package dev.agentpersistence.examples.jsonl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonLinesExampleTest {

    @Test
    void savesThroughDiscoveryReadsBackAndPrunes(@TempDir Path directory) throws Exception {
        var printed = new ByteArrayOutputStream();

        var lines = JsonLinesExample.run(directory, new PrintStream(printed, true, StandardCharsets.UTF_8));

        assertThat(lines)
                .hasSize(3)
                .allSatisfy(line -> assertThat(line).startsWith("{\"agentId\":\"note-taker\",\"checkpointId\":"));
        Path file = JsonLinesStorageBackend.file(directory, "note-taker");
        assertThat(Files.readAllLines(file)).as("after pruning: the latest").hasSize(1);
        try (var provider = dev.agentpersistence.storage.StorageShell.builder(new JsonLinesStorageBackend(directory))
                .build()) {
            assertThat(provider.getCheckpoints("note-taker"))
                    .singleElement()
                    .satisfies(cp -> assertThat(cp.nodeId()).isEqualTo("summarize"));
        }
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains("file, indexed, jdbc, jsonl, redis, s3")
                .contains("latest v2 at node 'summarize' with 6 messages", "removed 2");
    }
}
