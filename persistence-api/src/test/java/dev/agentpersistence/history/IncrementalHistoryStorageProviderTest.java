package dev.agentpersistence.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.ToolCall;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.history.internal.HistoryDescriptor;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class IncrementalHistoryStorageProviderTest {
    private static final Instant T0 = Instant.parse("2026-03-14T15:09:26.535897932Z");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final SegmentedHeapStorage heap = new SegmentedHeapStorage();
    private final IncrementalHistoryStorageProvider storage = IncrementalHistoryStorageProvider.of(heap);

    static List<Message> grow(List<Message> history, int step, int padding) {
        var next = new ArrayList<>(history);
        String pad = "x".repeat(padding);
        next.add(Message.user("question " + step + " " + pad));
        if (step % 10 == 3) {
            next.add(Message.toolCall(new ToolCall(
                    "call-" + step, "lookup", JSON.createObjectNode().put("n", step))));
        } else {
            next.add(Message.assistant("answer " + step + " " + pad).withMetadata("step", Integer.toString(step)));
        }
        return next;
    }

    static AgentCheckpoint checkpoint(String agent, long version, List<Message> history) {
        return AgentCheckpoint.builder()
                .checkpointId("cp-" + version)
                .agentId(agent)
                .version(version)
                .createdAt(T0.plusSeconds(version))
                .nodeId("node")
                .messageHistory(history)
                .metadata("phase", version % 2 == 0 ? "even" : "odd")
                .build();
    }

    private List<AgentCheckpoint> run(String agent, int steps, int padding) {
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

    @Test
    void growingRunRoundTripsAndStoresAFractionOfTheFullHistories() {
        var saved = run("agent", 1000, 200);
        assertThat(storage.getCheckpoints("agent")).containsExactlyElementsOf(saved);
        assertThat(storage.getLatestCheckpoint("agent")).contains(saved.get(999));
        assertThat(storage.getCheckpoint("agent", "cp-517")).contains(saved.get(517));

        // a lower bound of what full histories take: every checkpoint stores each of its messages
        var history = saved.get(999).messageHistory();
        int empty = CheckpointCodec.json().encode(checkpoint("agent", 0, List.of())).length;
        long[] prefixBytes = new long[history.size() + 1];
        for (int i = 0; i < history.size(); i++) {
            prefixBytes[i + 1] = prefixBytes[i]
                    + CheckpointCodec.json().encode(checkpoint("agent", 0, List.of(history.get(i)))).length
                    - empty;
        }
        long full = 0;
        for (var checkpoint : saved) {
            full += prefixBytes[checkpoint.messageHistory().size()];
        }
        long incremental = heap.checkpointBytes.get() + heap.segmentBytes.get();
        assertThat(incremental * 20)
                .as("incremental %d bytes vs at least %d bytes for full histories", incremental, full)
                .isLessThan(full);
        assertThat(heap.segmentPuts.get()).as("segment writes").isLessThan(300);
    }

    @Test
    void readsCostOneCheckpointReadAndOneSegmentRead() {
        var saved = run("agent", 400, 10);
        heap.checkpointReads.set(0);
        heap.segmentReads.set(0);
        // instances that saved nothing, like other processes
        assertThat(IncrementalHistoryStorageProvider.of(heap).getLatestCheckpoint("agent"))
                .contains(saved.get(399));
        assertThat(heap.checkpointReads.get()).isEqualTo(1);
        assertThat(heap.segmentReads.get()).isEqualTo(1);
        var all = IncrementalHistoryStorageProvider.of(heap)
                .getCheckpoints(
                        "agent",
                        CheckpointFilter.builder().metadata("phase", "odd").build());
        assertThat(all).hasSize(200);
        assertThat(heap.checkpointReads.get()).isEqualTo(2);
        assertThat(heap.segmentReads.get()).isEqualTo(2);
    }

    @Test
    void theInstanceThatSavedAHistoryReadsItsSegmentsFromItsCache() {
        var saved = run("agent", 400, 10);
        heap.checkpointReads.set(0);
        heap.segmentReads.set(0);
        assertThat(storage.getLatestCheckpoint("agent")).contains(saved.get(399));
        assertThat(storage.getCheckpoints("agent")).containsExactlyElementsOf(saved);
        assertThat(heap.checkpointReads.get()).isEqualTo(2);
        assertThat(heap.segmentReads.get()).as("segments fetched").isZero();

        // another instance saves a history that is not an extension: its segments are fetched and checked
        var other = IncrementalHistoryStorageProvider.of(heap);
        var edited = new ArrayList<>(saved.get(399).messageHistory());
        edited.set(3, Message.user("edited"));
        var rewritten = checkpoint("agent", 400, edited);
        other.saveCheckpoint("agent", rewritten);
        assertThat(storage.getLatestCheckpoint("agent")).contains(rewritten);
        assertThat(heap.segmentReads.get()).isEqualTo(1);
    }

    @Test
    void historiesReadFromTheCacheAreIsolatedFromCallers() {
        var history = new ArrayList<Message>();
        var arguments = JSON.createObjectNode().put("query", "original");
        history.add(Message.toolCall(new ToolCall("call-1", "search", arguments)));
        for (int i = 1; i < 40; i++) {
            history.add(Message.user("message " + i));
        }
        var checkpoint = checkpoint("agent", 1, history);
        storage.saveCheckpoint("agent", checkpoint);
        arguments.put("query", "changed by the caller after saving");

        AgentCheckpoint first = storage.getLatestCheckpoint("agent").orElseThrow();
        var firstArguments =
                (ObjectNode) first.messageHistory().get(0).toolCall().arguments();
        assertThat(firstArguments.get("query").asText()).isEqualTo("original");
        firstArguments.put("query", "changed by a reader");

        AgentCheckpoint second = storage.getLatestCheckpoint("agent").orElseThrow();
        assertThat(second.messageHistory()
                        .get(0)
                        .toolCall()
                        .arguments()
                        .get("query")
                        .asText())
                .isEqualTo("original");
        assertThat(IncrementalHistoryStorageProvider.of(heap).getLatestCheckpoint("agent"))
                .contains(second);
    }

    @Test
    void storedCheckpointsKeepOnlyTheLastIncompleteBlockInline() {
        var saved = run("agent", 100, 10);
        AgentCheckpoint stored = heap.stored("agent", 99);
        assertThat(stored.messageHistory())
                .hasSize(200 % 16)
                .isEqualTo(saved.get(99).messageHistory().subList(192, 200));
        var descriptor =
                HistoryDescriptor.parse(stored.metadata().get(IncrementalHistoryStorageProvider.DESCRIPTOR_KEY));
        assertThat(descriptor.segmentIds()).hasSize(1).allMatch(id -> id.startsWith("0-192-"));
        assertThat(heap.stored("agent", 3).metadata())
                .as("short histories are stored as they are")
                .doesNotContainKey(IncrementalHistoryStorageProvider.DESCRIPTOR_KEY);
        assertThat(storage.getCheckpoint("agent", "cp-99").orElseThrow().metadata())
                .containsOnlyKeys("phase");
    }

    @Test
    void historiesThatAreNotExtensionsRoundTrip() {
        var base = run("agent", 300, 5).get(299).messageHistory();
        var edited = new ArrayList<>(base);
        edited.set(100, Message.user("edited in the middle"));
        var removed = new ArrayList<>(base);
        removed.remove(17);
        var rolledBack = new ArrayList<>(base.subList(0, 260));
        rolledBack.add(Message.assistant("diverged"));
        var variants = List.of(
                base.subList(0, 17), edited, removed, rolledBack, List.<Message>of(), base, base.subList(0, 256));
        var saved = new ArrayList<AgentCheckpoint>();
        long version = 300;
        for (var history : variants) {
            var checkpoint = checkpoint("agent", version++, history);
            storage.saveCheckpoint("agent", checkpoint);
            saved.add(checkpoint);
        }
        assertThat(storage.getCheckpoints(
                        "agent", CheckpointFilter.builder().limit(saved.size()).build()))
                .containsExactlyElementsOf(saved);
        var fresh = IncrementalHistoryStorageProvider.of(heap);
        for (var checkpoint : saved) {
            assertThat(fresh.getCheckpoint("agent", checkpoint.checkpointId())).contains(checkpoint);
        }
    }

    @Test
    void reservedMetadataKeysAreRefused() {
        var bad = checkpoint("agent", 0, List.of()).toBuilder()
                .metadata(IncrementalHistoryStorageProvider.RESERVED_METADATA_PREFIX + "x", "y")
                .build();
        assertThatThrownBy(() -> storage.saveCheckpoint("agent", bad))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reserved");
        var filter = CheckpointFilter.builder()
                .metadata(IncrementalHistoryStorageProvider.DESCRIPTOR_KEY, "{}")
                .build();
        assertThatThrownBy(() -> storage.getCheckpoints("agent", filter)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> storage.getLatestCheckpoint("agent", filter))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void identicalResaveIsANoOpAndOtherContentConflicts() {
        var saved = run("agent", 50, 5);
        storage.saveCheckpoint("agent", saved.get(49));
        var changed = new ArrayList<>(saved.get(49).messageHistory());
        changed.set(3, Message.user("other"));
        assertThatThrownBy(() -> storage.saveCheckpoint("agent", checkpoint("agent", 49, changed)))
                .isInstanceOf(CheckpointConflictException.class);
        assertThat(storage.getLatestCheckpoint("agent")).contains(saved.get(49));
    }

    @Test
    void resavingACheckpointStoredWithItsWholeHistoryIsANoOp() {
        var whole = checkpoint("agent", 0, grow(grow(List.of(), 0, 5), 1, 5));
        var longWhole = checkpoint("agent", 1, run("other", 40, 5).get(39).messageHistory());
        heap.saveCheckpoint("agent", whole);
        heap.saveCheckpoint("agent", longWhole);
        storage.saveCheckpoint("agent", longWhole);
        assertThat(storage.getCheckpoints("agent")).containsExactly(whole, longWhole);
        var other = checkpoint("agent", 1, longWhole.messageHistory().subList(0, 40));
        assertThatThrownBy(() -> storage.saveCheckpoint("agent", other))
                .isInstanceOf(CheckpointConflictException.class);
    }

    @Test
    void aCrashBeforeTheCheckpointIsWrittenLeavesOnlyUnreferencedSegments() {
        var saved = run("agent", 200, 5);
        var next = checkpoint("agent", 200, grow(saved.get(199).messageHistory(), 200, 5));
        heap.failSaves = true;
        assertThatThrownBy(() -> storage.saveCheckpoint("agent", next)).hasMessageContaining("simulated crash");
        heap.failSaves = false;
        assertThat(storage.getCheckpoints("agent")).containsExactlyElementsOf(saved);
        storage.saveCheckpoint("agent", next);
        assertThat(storage.getLatestCheckpoint("agent")).contains(next);
    }

    @Test
    void missingOrTamperedDataIsReportedAsCorrupt() {
        run("agent", 100, 5);
        AgentCheckpoint stored = heap.stored("agent", 99);
        var descriptor =
                HistoryDescriptor.parse(stored.metadata().get(IncrementalHistoryStorageProvider.DESCRIPTOR_KEY));
        String segment = descriptor.segmentIds().get(0);

        var otherMessages = run("other", 100, 6).get(99).messageHistory().subList(0, 192);
        byte[] foreign = CheckpointCodec.json()
                .encode(AgentCheckpoint.builder()
                        .checkpointId(segment)
                        .agentId("agent")
                        .version(0)
                        .createdAt(Instant.EPOCH)
                        .messageHistory(otherMessages)
                        .build());
        heap.tamperSegment("agent", segment, foreign);
        // the instance that wrote the segments answers from its cache; a fresh one reads the store
        assertThat(storage.getCheckpoint("agent", "cp-99")).isPresent();
        var storage = IncrementalHistoryStorageProvider.of(heap);
        assertThatThrownBy(() -> storage.getCheckpoint("agent", "cp-99"))
                .isInstanceOfSatisfying(CorruptCheckpointException.class, e -> {
                    assertThat(e.agentId()).isEqualTo("agent");
                    assertThat(e.checkpointId()).isEqualTo("cp-99");
                    assertThat(e.location()).contains(segment);
                })
                .hasMessageContaining("does not hold the messages its id names");

        heap.tamperSegment("agent", segment, "not json".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> IncrementalHistoryStorageProvider.of(heap).getLatestCheckpoint("agent"))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("unreadable");

        heap.dropSegment("agent", segment);
        assertThatThrownBy(() -> IncrementalHistoryStorageProvider.of(heap).getCheckpoints("agent"))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("missing");

        var tail = new ArrayList<>(stored.messageHistory());
        tail.set(0, Message.user("tampered"));
        heap.replaceDocument(
                "agent", 99, stored.toBuilder().messageHistory(tail).build());
        run("agent", 0, 0);
        assertThatThrownBy(() -> IncrementalHistoryStorageProvider.of(heap).getCheckpoint("agent", "cp-99"))
                .isInstanceOf(CorruptCheckpointException.class);

        heap.replaceDocument(
                "agent",
                98,
                stored.toBuilder()
                        .checkpointId("cp-98")
                        .version(98)
                        .metadata(IncrementalHistoryStorageProvider.DESCRIPTOR_KEY, "{\"format\":9}")
                        .build());
        assertThatThrownBy(() -> storage.getCheckpoint("agent", "cp-98"))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("format 9");
    }

    @Test
    void wrapPassesProvidersWithoutTheCapabilityThrough() {
        PersistenceStorageProvider<CheckpointFilter> plain = new PersistenceStorageProvider<>() {
            @Override
            public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
                return List.of();
            }

            @Override
            public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {}

            @Override
            public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
                return Optional.empty();
            }
        };
        assertThat(IncrementalHistoryStorageProvider.wrap(plain)).isSameAs(plain);
        assertThat(IncrementalHistoryStorageProvider.wrap(storage)).isSameAs(storage);
        var wrapped = IncrementalHistoryStorageProvider.wrap(heap);
        assertThat(wrapped).isInstanceOf(IncrementalHistoryStorageProvider.class);
        assertThat(((IncrementalHistoryStorageProvider) wrapped).delegate()).isSameAs(heap);
    }

    @Test
    void aFreshInstanceResumingFromTheLatestCheckpointWritesOnlyNewSegments() {
        var saved = run("agent", 300, 5);
        var resumed = IncrementalHistoryStorageProvider.of(heap);
        var latest = resumed.getLatestCheckpoint("agent").orElseThrow();
        int puts = heap.segmentPuts.get();
        List<Message> history = latest.messageHistory();
        for (int step = 300; step < 340; step++) {
            history = grow(history, step, 5);
            resumed.saveCheckpoint("agent", checkpoint("agent", step, history));
        }
        assertThat(heap.segmentPuts.get() - puts)
                .as("segment writes for 40 more steps")
                .isLessThanOrEqualTo(10);
        assertThat(storage.getLatestCheckpoint("agent").orElseThrow().messageHistory())
                .isEqualTo(history);
        assertThat(saved).hasSize(300);
    }

    @Test
    void withoutACacheEverySaveHashesItsHistoryAndStillRoundTrips() {
        var uncached = IncrementalHistoryStorageProvider.builder(heap)
                .config(IncrementalHistoryConfig.custom().cachedMessages(0).build())
                .build();
        List<Message> history = List.of();
        var saved = new ArrayList<AgentCheckpoint>();
        for (int step = 0; step < 150; step++) {
            history = grow(history, step, 5);
            var checkpoint = checkpoint("uncached", step, history);
            uncached.saveCheckpoint("uncached", checkpoint);
            saved.add(checkpoint);
        }
        assertThat(storage.getCheckpoints("uncached")).containsExactlyElementsOf(saved);
    }

    @Test
    void deletionsKeepWhatKeptCheckpointsNeedAndCollectTheRest() {
        var clock = new MutableClock(T0);
        var heapWithClock = new SegmentedHeapStorage(clock);
        var layer = IncrementalHistoryStorageProvider.builder(heapWithClock)
                .clock(clock)
                .config(IncrementalHistoryConfig.custom()
                        .gracePeriod(java.time.Duration.ofMinutes(10))
                        .build())
                .build();
        var saved = new ArrayList<AgentCheckpoint>();
        List<Message> history = List.of();
        for (int step = 0; step < 300; step++) {
            history = grow(history, step, 5);
            var checkpoint = checkpoint("agent", step, history);
            layer.saveCheckpoint("agent", checkpoint);
            saved.add(checkpoint);
        }
        int before = heapWithClock.segmentCount("agent");
        assertThat(layer.deleteCheckpointsBefore("agent", 290)).isEqualTo(290);
        assertThat(heapWithClock.segmentCount("agent"))
                .as("nothing is older than the grace period yet")
                .isEqualTo(before);

        clock.advance(java.time.Duration.ofMinutes(11));
        // the kept versions 290..299 (582..600 messages) need [0, 512), [512, 576) and [512, 592)
        assertThat(layer.collectGarbage("agent", clock.instant().minus(java.time.Duration.ofMinutes(10))))
                .isEqualTo(before - 3);
        assertThat(layer.getCheckpoints("agent")).containsExactlyElementsOf(saved.subList(290, 300));

        var next = checkpoint("agent", 300, grow(saved.get(299).messageHistory(), 300, 5));
        layer.saveCheckpoint("agent", next);
        assertThat(layer.getLatestCheckpoint("agent")).contains(next);

        clock.advance(java.time.Duration.ofMinutes(11));
        assertThat(layer.deleteCheckpoints("agent")).isEqualTo(11);
        assertThat(heapWithClock.segmentCount("agent")).isZero();
        assertThat(layer.listSegmentAgents()).isEmpty();
    }

    @Test
    void aSegmentWrittenAgainAfterListingSurvivesCollection() {
        var clock = new MutableClock(T0);
        var heapWithClock = new SegmentedHeapStorage(clock);
        heapWithClock.putSegment("agent", "0-16-" + "a".repeat(64), new byte[] {1});
        clock.advance(java.time.Duration.ofHours(2));
        heapWithClock.putSegment("agent", "0-16-" + "a".repeat(64), new byte[] {1});
        assertThat(heapWithClock.deleteSegments(
                        "agent",
                        List.of("0-16-" + "a".repeat(64)),
                        clock.instant().minus(java.time.Duration.ofHours(1))))
                .isZero();
        assertThat(heapWithClock.segmentCount("agent")).isEqualTo(1);
    }
}
