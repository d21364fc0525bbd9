package dev.agentpersistence.history;

import static dev.agentpersistence.history.RetentionSweeperTest.checkpoint;
import static dev.agentpersistence.history.RetentionSweeperTest.grow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.EncryptionKeyException;
import dev.agentpersistence.Message;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.SegmentInfo;
import dev.agentpersistence.codec.CheckpointLocation;
import dev.agentpersistence.codec.DocumentLayers;
import dev.agentpersistence.codec.EncryptionKeys;
import dev.agentpersistence.history.internal.LogEntryId;
import dev.agentpersistence.history.internal.SegmentCodec;
import dev.agentpersistence.storage.MapBackend;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The stored form of message log entries: lean, compressed against the log before each, encrypted after compression,
 * verified when read; entries of the earlier form (bare checkpoint documents) still read, also followed by new ones.
 */
class LogEntryFormTest {
    private static final byte[] ENTRY_MAGIC = {(byte) 0xA9, 'A', 'P', 'L'};
    private static final byte[] RECORD_MAGIC = {(byte) 0xA9, 'A', 'P', 'Z', 3};
    private static final byte[] ENCRYPTED_MAGIC = {(byte) 0xA9, 'A', 'P', 'E'};
    private static final EncryptionKeys KEYS = EncryptionKeys.custom()
            .key("k1", "log entry form test key, 32 byte".getBytes(StandardCharsets.US_ASCII))
            .build();

    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-14T15:09:26Z"));
    private final MapBackend backend = new MapBackend(clock);

    private static StorageSettings settings(DocumentLayers layers) {
        return StorageSettings.custom()
                .layers(layers)
                .history(IncrementalHistoryConfig.custom()
                        .gracePeriod(Duration.ofMinutes(5))
                        .build())
                .build();
    }

    private static StorageSettings compressed() {
        return settings(DocumentLayers.custom().compression(true).build());
    }

    private StorageShell shell(StorageSettings settings) {
        return StorageShell.builder(backend).clock(clock).settings(settings).build();
    }

    private HistorySegmentStore segments() {
        return backend.segments().orElseThrow();
    }

    private Map<String, byte[]> entries(String agent) {
        List<String> ids = segments().listSegments(agent).stream()
                .map(SegmentInfo::segmentId)
                .toList();
        return segments().getSegments(agent, ids);
    }

    /** Replaces a stored entry (a put never replaces one). */
    private void replace(String agent, String id, byte[] bytes) {
        segments().deleteSegments(agent, List.of(id), clock.instant().plusSeconds(1));
        segments().putSegment(agent, id, bytes);
    }

    private static List<AgentCheckpoint> run(StorageShell storage, String agent, int steps, int padding) {
        var saved = new ArrayList<AgentCheckpoint>();
        List<Message> history = List.of();
        for (int step = 0; step < steps; step++) {
            history = grow(history, step, padding);
            var checkpoint = checkpoint(agent, step, history);
            storage.saveCheckpoint(agent, checkpoint);
            saved.add(checkpoint);
        }
        return saved;
    }

    private static boolean startsWith(byte[] bytes, byte[] prefix) {
        return bytes.length >= prefix.length && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
    }

    private String entryStartingAt(String agent, int from) {
        return entries(agent).keySet().stream()
                .filter(id -> id.startsWith(from + "-"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void entriesAreLeanAndCompressedAgainstTheLogBeforeThem() {
        var storage = shell(compressed());
        var saved = run(storage, "a", 40, 400);
        var stored = entries("a");
        assertThat(stored.values())
                .allSatisfy(bytes -> assertThat(startsWith(bytes, ENTRY_MAGIC)).isTrue());
        var earlierForm = new SegmentCodec(compressed().codec());
        List<Message> history = saved.get(39).messageHistory();
        long lean = 0;
        long earlier = 0;
        for (var entry : stored.entrySet()) {
            LogEntryId id = LogEntryId.parse(entry.getKey());
            lean += entry.getValue().length;
            earlier += earlierForm.encode("a", id.text(), history.subList(id.from(), id.to())).length;
        }
        assertThat(lean).as("lean entries against the earlier form").isLessThan(earlier * 2 / 3);
        assertThat(shell(compressed()).getCheckpoints("a")).containsExactlyElementsOf(saved);
    }

    @Test
    void entriesOfTheEarlierFormStillReadAndNewEntriesFollowThem() {
        var saved = run(shell(compressed()), "a", 20, 40);
        var earlierForm = new SegmentCodec(compressed().codec());
        List<Message> history = saved.get(19).messageHistory();
        for (String id : entries("a").keySet()) {
            LogEntryId entry = LogEntryId.parse(id);
            replace("a", id, earlierForm.encode("a", id, history.subList(entry.from(), entry.to())));
        }
        assertThat(entries("a").values())
                .noneSatisfy(bytes -> assertThat(startsWith(bytes, ENTRY_MAGIC)).isTrue());
        var reader = shell(compressed());
        assertThat(reader.getCheckpoints("a")).containsExactlyElementsOf(saved);
        var all = new ArrayList<>(saved);
        List<Message> grown = history;
        for (int step = 20; step < 25; step++) {
            grown = grow(grown, step, 40);
            var next = checkpoint("a", step, grown);
            reader.saveCheckpoint("a", next);
            all.add(next);
        }
        assertThat(entries("a").entrySet())
                .filteredOn(entry -> LogEntryId.parse(entry.getKey()).to() == 50)
                .singleElement()
                .satisfies(entry ->
                        assertThat(startsWith(entry.getValue(), ENTRY_MAGIC)).isTrue());
        assertThat(shell(compressed()).getCheckpoints("a")).containsExactlyElementsOf(all);
        assertThat(shell(settings(DocumentLayers.none())).getCheckpoints("a"))
                .as("read without compression configured")
                .containsExactlyElementsOf(all);
    }

    @Test
    void aDamagedOrTruncatedEntryIsACorruptCheckpointNamingIt() {
        run(shell(compressed()), "a", 20, 40);
        String id = entryStartingAt("a", 30);
        byte[] good = entries("a").get(id);
        byte[] damaged = good.clone();
        damaged[damaged.length / 2 + 7] ^= 0x5A;
        for (byte[] bad : List.of(damaged, Arrays.copyOf(good, good.length - 3), Arrays.copyOf(good, 9))) {
            replace("a", id, bad);
            assertThatThrownBy(() -> shell(compressed()).getLatestCheckpoint("a", CheckpointFilter.ALL))
                    .as(bad.length + " of " + good.length + " bytes")
                    .isInstanceOf(CorruptCheckpointException.class)
                    .hasMessageContaining(id);
        }
        byte[] huge = good.clone();
        huge[6] = 0x7F; // the declared text length
        replace("a", id, huge);
        assertThatThrownBy(() -> shell(compressed()).getLatestCheckpoint("a", CheckpointFilter.ALL))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining(id)
                .hasMessageContaining("declares");
        byte[] against = good.clone();
        against[10] = 0x01; // the dictionary length: more text than the history before the entry has
        replace("a", id, against);
        assertThatThrownBy(() -> shell(compressed()).getLatestCheckpoint("a", CheckpointFilter.ALL))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining(id)
                .hasMessageContaining("bytes of the history before it");
        replace("a", id, good);
        assertThat(shell(compressed()).getLatestCheckpoint("a", CheckpointFilter.ALL))
                .isPresent();
    }

    @Test
    void entriesAreEncryptedAfterCompressionAndReadOnlyWithTheKey() {
        var encrypted = settings(
                DocumentLayers.custom().compression(true).encryption(KEYS).build());
        var saved = run(shell(encrypted), "a", 30, 400);
        var stored = entries("a");
        assertThat(stored.values())
                .allSatisfy(
                        bytes -> assertThat(startsWith(bytes, ENCRYPTED_MAGIC)).isTrue());
        long held = stored.values().stream().mapToLong(bytes -> bytes.length).sum();
        long text = saved.get(29).messageHistory().stream()
                .mapToLong(message -> message.content().length())
                .sum();
        assertThat(held).as("compressed before encryption").isLessThan(text / 2);
        assertThat(shell(encrypted).getCheckpoints("a")).containsExactlyElementsOf(saved);
        assertThatThrownBy(() -> shell(compressed()).getLatestCheckpoint("a", CheckpointFilter.ALL))
                .isInstanceOf(EncryptionKeyException.class);
    }

    @Test
    void aRecordWhoseHistoryIsInTheLogIsCompressedAgainstTheRecordDictionary() {
        var saved = run(shell(compressed()), "a", 20, 40);
        byte[] record = backend.find("a", "cp-19").orElseThrow().document();
        byte[] plain = compressed()
                .codec()
                .inner()
                .encode(backend.find("a", "cp-19")
                        .map(found -> compressed().codec().decode(found.document(), location("cp-19")))
                        .orElseThrow());
        assertThat(startsWith(record, RECORD_MAGIC)).isTrue();
        assertThat(record.length).as("against %s bytes of JSON", plain.length).isLessThan(plain.length * 2 / 3);
        assertThat(startsWith(backend.find("a", "cp-1").orElseThrow().document(), RECORD_MAGIC))
                .as("a record holding its short history")
                .isFalse();
        assertThat(shell(settings(DocumentLayers.none())).getCheckpoints("a")).containsExactlyElementsOf(saved);
        var damaged = record.clone();
        damaged[record.length - 4] ^= 0x21;
        assertThatThrownBy(() -> compressed().codec().decode(damaged, location("cp-19")))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("cp-19");
        byte[] truncated = Arrays.copyOf(record, 11);
        assertThatThrownBy(() -> compressed().codec().decode(truncated, location("cp-19")))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("truncated");
    }

    private static CheckpointLocation location(String checkpointId) {
        return new CheckpointLocation("a", checkpointId, "test");
    }
}
