package dev.agentpersistence.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.ContentPart;
import dev.agentpersistence.ContentPart.MediaKind;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.ToolCall;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ConversationStoreTest {
    private final dev.agentpersistence.storage.StorageShell storage = HeapStorage.provider();
    private final ConversationStore store = ConversationStore.of(storage);

    private static List<Message> copies(List<Message> messages) { // as a framework without ids hands them back
        return messages.stream().map(m -> m.withId(Message.newId())).collect(Collectors.toList());
    }

    private static List<Message> plus(List<Message> messages, Message... more) {
        var all = new ArrayList<>(messages);
        all.addAll(List.of(more));
        return all;
    }

    @Test
    void anUnknownConversationIsEmptyAndAnEmptyChangeWritesNothing() {
        var empty = store.load("nobody");
        assertThat(empty.messages()).isEmpty();
        assertThat(empty.version()).isEqualTo(-1);
        assertThat(empty.checkpoint()).isEmpty();
        store.append("nobody", List.of());
        store.replace("nobody", List.of());
        assertThat(storage.getCheckpoints("nobody")).isEmpty();
    }

    @Test
    void appendIfStoredWritesOnlyToAStoredConversation() {
        assertThat(store.appendIfStored("c1", List.of(Message.user("lost")))).isEmpty();
        assertThat(storage.getCheckpoints("c1")).isEmpty();

        store.append("c1", Message.user("hello"));
        var saved = store.appendIfStored("c1", List.of(Message.assistant("hi")));
        assertThat(saved).isPresent();
        assertThat(saved.get().history()).extracting(Message::content).containsExactly("hello", "hi");
        assertThat(store.load("c1")).isEqualTo(saved.get());
        assertThat(store.appendIfStored("c1", List.of())).contains(saved.get());

        store.delete("c1");
        assertThat(store.appendIfStored("c1", List.of(Message.user("after the delete"))))
                .isEmpty();
        assertThat(storage.getCheckpoints("c1")).isEmpty();
    }

    @Test
    void appendSavesOneCheckpointPerChangeChainedToThePreviousOne() {
        var hello = Message.user("hello");
        var image = Message.user(List.of(
                ContentPart.text("what is this?"),
                ContentPart.bytes(MediaKind.IMAGE, new byte[] {1, 2, 3}, "image/png")));
        store.append("c1", hello);
        var saved = store.append("c1", List.of(image, Message.assistant("a cat")));

        assertThat(saved.messages())
                .containsExactly(hello, image, saved.messages().get(2));
        assertThat(store.load("c1")).isEqualTo(saved);
        var checkpoints = storage.getCheckpoints("c1");
        assertThat(checkpoints).extracting(AgentCheckpoint::version).containsExactly(0L, 1L);
        assertThat(checkpoints.get(1).parentCheckpointId())
                .isEqualTo(checkpoints.get(0).checkpointId());
        assertThat(checkpoints.get(0).nodeId()).isEqualTo(ConversationStore.NODE_ID);
        assertThat(checkpoints.get(1).metadata()).doesNotContainKey(ConversationStore.WINDOW_METADATA_KEY);
    }

    @Test
    void aNewCheckpointKeepsTheStateNodeAndMetadataOfThePreviousOne() {
        storage.saveCheckpoint(
                "agent-7",
                AgentCheckpoint.builder()
                        .checkpointId("cp-0")
                        .agentId("agent-7")
                        .createdAt(Instant.parse("2026-01-01T00:00:00Z"))
                        .nodeId("plan")
                        .state("step", IntNode.valueOf(3))
                        .metadata("team", "blue")
                        .message(Message.user("start"))
                        .build());

        var saved = store.append("agent-7", Message.assistant("planned"));

        var checkpoint = saved.checkpoint().orElseThrow();
        assertThat(checkpoint.nodeId()).isEqualTo("plan");
        assertThat(checkpoint.state()).containsEntry("step", IntNode.valueOf(3));
        assertThat(checkpoint.metadata()).containsEntry("team", "blue");
        assertThat(checkpoint.parentCheckpointId()).isEqualTo("cp-0");
        assertThat(saved.messages()).extracting(Message::content).containsExactly("start", "planned");
    }

    @Test
    void replaceAppendsOnlyTheNewTailAndKeepsTheStoredIds() {
        var first = store.append("c2", List.of(Message.system("be brief"), Message.user("hi")));
        var answer = Message.assistant("hello");

        var saved = store.replace("c2", plus(copies(first.messages()), answer));

        assertThat(saved.history()).hasSize(3);
        assertThat(saved.messages().subList(0, 2)).isEqualTo(first.messages());
        assertThat(saved.messages().get(2)).isEqualTo(answer);
        assertThat(saved.checkpoint().orElseThrow().parentCheckpointId())
                .isEqualTo(first.checkpoint().orElseThrow().checkpointId());
    }

    @Test
    void eachTurnWritesAboutTheSameBytesHoweverLongTheHistory() {
        var window = new ArrayList<Message>();
        long[] written = new long[321];
        for (int turn = 1; turn <= 320; turn++) {
            window.add(Message.user("question " + turn + " with some words to make it a realistic line of text"));
            long before = HeapStorage.storedBytes(storage);
            window = new ArrayList<>(store.replace("c14", copies(window)).messages());
            written[turn] = HeapStorage.storedBytes(storage) - before;
        }
        long early = java.util.Arrays.stream(written, 33, 65).sum();
        long late = java.util.Arrays.stream(written, 289, 321).sum();
        assertThat(store.load("c14").history()).hasSize(320);
        assertThat(late).as("bytes written by turns 289-320 vs 33-64").isLessThan(early * 2);
    }

    @Test
    void replacingTheWindowWithItselfWritesNothing() {
        var saved = store.append("c3", List.of(Message.user("a"), Message.assistant("b")));
        assertThat(store.replace("c3", copies(saved.messages()))).isEqualTo(saved);
        assertThat(storage.getCheckpoints("c3")).hasSize(1);
    }

    @Test
    void anEvictionStoresTheNewWindowAndKeepsTheEarlierHistory() {
        var system = Message.system("be brief");
        var saved = store.append(
                "c4",
                List.of(
                        system,
                        Message.user("u1"),
                        Message.assistant("a1"),
                        Message.user("u2"),
                        Message.assistant("a2")));
        var window = saved.messages();
        var u3 = Message.user("u3");

        var evicted = store.replace("c4", List.of(window.get(0), window.get(3), window.get(4), u3));

        assertThat(evicted.messages()).containsExactly(system, window.get(3), window.get(4), u3);
        assertThat(evicted.history())
                .containsExactly(system, window.get(1), window.get(2), window.get(3), window.get(4), u3);
        assertThat(evicted.checkpoint().orElseThrow().metadata())
                .containsEntry(ConversationStore.WINDOW_METADATA_KEY, "0-1,3-6");
        assertThat(store.load("c4")).isEqualTo(evicted);

        var next = store.append("c4", Message.assistant("a3"));
        assertThat(next.messages()).extracting(Message::content).containsExactly("be brief", "u2", "a2", "u3", "a3");
    }

    @Test
    void anEvictionThatOrphansAToolResultAlignsTheHead() {
        var call = Message.toolCall(new ToolCall("call-1", "lookup", IntNode.valueOf(1)));
        var result = Message.toolResult("call-1", "lookup", "found");
        var saved = store.append(
                "c5",
                List.of(Message.system("s"), Message.user("find 1"), call, result, Message.assistant("found it")));
        var window = saved.messages();

        var evicted = store.replace("c5", List.of(window.get(0), window.get(3), window.get(4), Message.user("thanks")));

        assertThat(evicted.messages()).extracting(Message::content).containsExactly("s", "found it", "thanks");
        assertThat(evicted.history()).contains(call, result);
    }

    @Test
    void anAppendThatWouldHeadTheWindowWithAnOrphanedToolResultAlignsIt() {
        var call = Message.toolCall(new ToolCall("call-1", "lookup", IntNode.valueOf(1)));
        store.append("c6", List.of(Message.system("s"), Message.user("find 1"), call));
        store.replace("c6", List.of(Message.system("s"))); // a window of 1 evicted the call

        var appended = store.append("c6", Message.toolResult("call-1", "lookup", "found"));

        assertThat(appended.messages()).extracting(Message::content).containsExactly("s");
        assertThat(appended.history()).extracting(Message::role).endsWith(Message.Role.TOOL_RESULT);
        assertThat(storage.getLatestCheckpoint("c6").orElseThrow().metadata())
                .containsEntry(ConversationStore.WINDOW_METADATA_KEY, "0-1");
        var next = store.append("c6", Message.user("thanks"));
        assertThat(next.messages()).extracting(Message::content).containsExactly("s", "thanks");
    }

    @Test
    void aFirstAppendStartingWithAToolResultKeepsOnlyTheSystemMessageInTheWindow() {
        var saved = store.append("c7", List.of(Message.system("s"), Message.toolResult("call-9", "lookup", "found")));

        assertThat(saved.messages()).extracting(Message::content).containsExactly("s");
        assertThat(store.load("c7").messages()).extracting(Message::content).containsExactly("s");
    }

    @Test
    void aWindowStoredWithAnOrphanedHeadReadsAligned() {
        var call = Message.toolCall(new ToolCall("call-1", "lookup", IntNode.valueOf(1)));
        storage.saveCheckpoint(
                "old",
                AgentCheckpoint.builder()
                        .checkpointId("cp-0")
                        .agentId("old")
                        .version(0)
                        .createdAt(Instant.parse("2026-01-01T00:00:00Z"))
                        .nodeId(ConversationStore.NODE_ID)
                        .messageHistory(List.of(
                                Message.system("s"),
                                Message.user("find 1"),
                                call,
                                Message.toolResult("call-1", "lookup", "found"),
                                Message.assistant("found it")))
                        .metadata(ConversationStore.WINDOW_METADATA_KEY, "0-1,3-5")
                        .build());

        var read = store.load("old");

        assertThat(read.messages()).extracting(Message::content).containsExactly("s", "found it");
        assertThat(read.history()).hasSize(5);
        // the framework hands back what it read: nothing to write
        assertThat(store.replace(read, read.messages()).version()).isZero();
    }

    @Test
    void aListSharingNothingWithTheWindowReplacesIt() {
        store.append("c6", List.of(Message.user("old"), Message.assistant("old answer")));
        var fresh = List.of(Message.user("new"));
        var saved = store.replace("c6", fresh);
        assertThat(saved.messages()).isEqualTo(fresh);
        assertThat(saved.history()).extracting(Message::content).containsExactly("old", "old answer", "new");
    }

    @Test
    void replaceAgainstWhatTheFrameworkReadKeepsMessagesOthersAddedMeanwhile() {
        store.append("c7", Message.user("hi"));
        var readByFramework = store.load("c7");
        var otherWriter = Message.assistant("written by another instance");
        ConversationStore.of(storage).append("c7", otherWriter);

        var mine = Message.user("mine");
        var saved = store.replace(readByFramework, plus(copies(readByFramework.messages()), mine));

        assertThat(saved.messages()).extracting(Message::content).containsExactly("hi", otherWriter.content(), "mine");
    }

    @Test
    void clearEmptiesTheWindowButKeepsTheHistoryAndDeleteRemovesEverything() {
        store.append("c8", List.of(Message.user("a"), Message.assistant("b")));
        var cleared = store.clear("c8");
        assertThat(cleared.messages()).isEmpty();
        assertThat(cleared.history()).hasSize(2);
        assertThat(store.append("c8", Message.user("c")).messages())
                .extracting(Message::content)
                .containsExactly("c");

        assertThat(store.delete("c8")).isEqualTo(3);
        assertThat(store.load("c8").history()).isEmpty();
    }

    @Test
    void aTombstoneStartsAFreshConversation() {
        store.append("c9", Message.user("old run"));
        storage.saveCheckpoint("c9", AgentCheckpoint.tombstone("c9", 1, Instant.now()));
        var saved = store.append("c9", Message.user("new run"));
        assertThat(saved.messages()).extracting(Message::content).containsExactly("new run");
        assertThat(saved.version()).isEqualTo(2);
    }

    @Test
    void theAgentIdPrefixKeepsConversationsApartFromOtherAgents() {
        var prefixed = ConversationStore.builder(storage).agentIdPrefix("chat:").build();
        prefixed.append("c10", Message.user("hi"));
        assertThat(prefixed.agentId("c10")).isEqualTo("chat:c10");
        assertThat(storage.getCheckpoints("chat:c10")).hasSize(1);
        assertThat(store.load("c10").messages()).isEmpty();
    }

    @Test
    void aChangeThatLosesEveryRaceFailsTypedAndWritesNothingOfItsOwn() {
        var rival = ConversationStore.of(storage);
        PersistenceStorageProvider<CheckpointFilter> racing =
                new RacingStorage(storage, () -> rival.append("c11", Message.assistant("rival")));
        var unlucky = ConversationStore.builder(racing).maxConflictRetries(2).build();

        assertThatThrownBy(() -> unlucky.append("c11", Message.user("mine")))
                .isInstanceOf(ConversationConflictException.class)
                .hasMessageContaining("'c11'")
                .hasMessageContaining("3 attempts")
                .satisfies(e -> assertThat(((ConversationConflictException) e).attempts())
                        .isEqualTo(3));
        assertThat(store.load("c11").messages())
                .extracting(Message::content)
                .containsExactly("rival", "rival", "rival");
    }

    @Test
    void aChangeThatLosesARaceIsAppliedAgainToTheReloadedConversation() {
        var rival = ConversationStore.of(storage);
        var races = new int[] {2};
        var racing = new RacingStorage(storage, () -> {
            if (races[0]-- > 0) {
                rival.append("c12", Message.assistant("rival"));
            }
        });
        var saved = ConversationStore.of(racing).append("c12", Message.user("mine"));
        assertThat(saved.messages()).extracting(Message::content).containsExactly("rival", "rival", "mine");
    }

    @Test
    void aCorruptWindowEntryIsReportedWithTheCheckpoint() {
        storage.saveCheckpoint(
                "c13",
                AgentCheckpoint.builder()
                        .checkpointId("bad")
                        .agentId("c13")
                        .createdAt(Instant.now())
                        .message(Message.user("x"))
                        .metadata(ConversationStore.WINDOW_METADATA_KEY, "0-9")
                        .build());
        assertThatThrownBy(() -> store.load("c13"))
                .isInstanceOf(dev.agentpersistence.CorruptCheckpointException.class)
                .hasMessageContaining("'bad'")
                .hasMessageContaining("c13")
                .hasMessageContaining("outside a history of 1");
    }

    @Test
    void aRollbackUndoesTheToolCallsRecordedSinceTheCheckpointAndRestoresItsWindow() {
        var before = store.append("c15", List.of(Message.system("s"), Message.user("make two users")));
        var removed = new ArrayList<String>();
        store.append(
                "c15",
                List.of(
                        Message.toolCall(new ToolCall("1", "createUser", IntNode.valueOf(1))),
                        Message.toolResult("1", "createUser", "ok"),
                        Message.toolCall(new ToolCall("2", "createUser", IntNode.valueOf(2))),
                        Message.toolResult("2", "createUser", "ok"),
                        Message.assistant("done")));
        var tools = dev.agentpersistence.RollbackToolRegistry.builder()
                .registerRollback("createUser", "removeUser", args -> {
                    removed.add(args.asText());
                    return null;
                })
                .build();

        var report = store.rollbackTo("c15", before.checkpoint().orElseThrow().checkpointId(), tools);

        assertThat(removed).containsExactly("2", "1");
        assertThat(report.toolRollback().performed()).hasSize(2);
        var now = store.load("c15");
        assertThat(now.messages()).isEqualTo(before.messages());
        assertThat(now.version()).isEqualTo(2);
        assertThat(storage.getCheckpoints("c15")).hasSize(3);
        assertThatThrownBy(() -> store.rollbackTo("c15", "missing", tools))
                .isInstanceOf(dev.agentpersistence.CheckpointNotFoundException.class);
    }

    @Test
    void trimmingOldCheckpointsKeepsEveryMessage() {
        Conversation last = null;
        for (int i = 0; i < 60; i++) {
            last = store.append("c16", List.of(Message.user("q" + i), Message.assistant("a" + i)));
        }
        var sweeper = dev.agentpersistence.history.RetentionSweeper.builder(storage)
                .policy(dev.agentpersistence.history.RetentionPolicy.custom()
                        .keepLatest(1)
                        .build())
                .gracePeriod(java.time.Duration.ZERO)
                .build();
        sweeper.sweep(List.of("c16"));

        assertThat(storage.getCheckpoints("c16")).hasSize(1);
        assertThat(store.load("c16").messages()).isEqualTo(last.messages()).hasSize(120);
    }

    @Test
    void aReplaceOnAnOldBaseLandsOnTopEvenWhenRetentionFreedTheVersionAfterIt() {
        var base = store.append("c17", Message.user("hi"));
        var other = ConversationStore.of(storage);
        for (int i = 0; i < 3; i++) {
            other.append("c17", Message.assistant("other " + i));
        }
        storage.deleteCheckpointsBefore("c17", 3); // version 1, right after the base, is free again

        var saved = store.replace(base, plus(copies(base.messages()), Message.user("mine")));

        assertThat(saved.version()).isEqualTo(4);
        assertThat(store.load("c17").messages())
                .extracting(Message::content)
                .containsExactly("hi", "other 0", "other 1", "other 2", "mine");
    }

    /** Runs a rival writer right before each save, so the save finds its version taken. */
    private record RacingStorage(PersistenceStorageProvider<CheckpointFilter> delegate, Runnable rival)
            implements PersistenceStorageProvider<CheckpointFilter> {
        @Override
        public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
            return delegate.getCheckpoints(agentId, filter);
        }

        @Override
        public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
            rival.run();
            delegate.saveCheckpoint(agentId, checkpoint);
        }

        @Override
        public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
            return delegate.getLatestCheckpoint(agentId, filter);
        }
    }

    @Test
    void overlappingWindowRangesAreACorruptCheckpointReadWithBoundedAllocation() {
        var history = new ArrayList<Message>();
        for (int i = 0; i < 1000; i++) {
            history.add(Message.user("m" + i));
        }
        String ranges = String.join(",", java.util.Collections.nCopies(1400, "0-1000"));
        assertThat(ranges.length()).isGreaterThan(9_000);
        storage.saveCheckpoint(
                "overlap",
                AgentCheckpoint.builder()
                        .checkpointId("cp-0")
                        .agentId("overlap")
                        .version(0)
                        .createdAt(Instant.parse("2026-01-01T00:00:00Z"))
                        .nodeId(ConversationStore.NODE_ID)
                        .messageHistory(history)
                        .metadata(ConversationStore.WINDOW_METADATA_KEY, ranges)
                        .build());
        var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();

        assertThatThrownBy(() -> store.load("overlap"))
                .isInstanceOf(dev.agentpersistence.CorruptCheckpointException.class)
                .hasMessageContaining(ConversationStore.WINDOW_METADATA_KEY)
                .hasMessageContaining("ascending and disjoint");
        assertThat(threads.getCurrentThreadAllocatedBytes() - before).isLessThan(16L << 20);
    }

    @Test
    void aReplaceBuiltFromAConversationAnotherWriterRolledBackIsRefusedAndDropsNothing() {
        var start = store.append("stale", List.of(Message.system("s"), Message.user("u1")));
        store.append("stale", Message.assistant("a1"));
        Conversation base = store.load("stale");
        // another writer rolls the conversation back and goes on with a message of its own
        store.rollbackTo(
                "stale",
                start.checkpoint().orElseThrow().checkpointId(),
                dev.agentpersistence.RollbackToolRegistry.EMPTY);
        var theirs = store.append("stale", Message.user("other"));

        var list = new ArrayList<>(base.messages());
        list.add(Message.user("u2"));
        assertThatThrownBy(() -> store.replace(base, list))
                .isInstanceOf(ConversationConflictException.class)
                .hasMessageContaining("rolled the conversation back or rewritten it");

        var now = store.load("stale");
        assertThat(now.version()).isEqualTo(theirs.version());
        assertThat(now.messages()).extracting(Message::content).containsExactly("s", "u1", "other");
    }

    @Test
    void aReplaceAfterTheConversationWasDeletedWritesItAsANewConversation() {
        store.append("gone", List.of(Message.user("u1")));
        Conversation base = store.load("gone");
        store.delete("gone");

        var saved = store.replace(base, List.of(Message.user("u1"), Message.user("u2")));

        assertThat(saved.messages()).extracting(Message::content).containsExactly("u1", "u2");
    }
}
