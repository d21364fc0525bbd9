package dev.agentpersistence.history.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.Message;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class KnownLogTest {
    private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");
    private final ChainHasher hasher = new ChainHasher();

    @Test
    void aLogExtendedTwiceFromTheSameStateKeepsBothBranchesApart() {
        KnownLog base = extend(KnownLog.empty(), T0, "a", "b");
        KnownLog first = extend(base, T0.plusSeconds(1), "c");
        KnownLog second = extend(base, T0.plusSeconds(2), "x", "y");

        assertThat(texts(base)).containsExactly("a", "b");
        assertThat(texts(first)).containsExactly("a", "b", "c");
        assertThat(texts(second)).containsExactly("a", "b", "x", "y");
        assertThat(first.entryCount()).isEqualTo(2);
        assertThat(second.entries()).hasSize(2);
        assertThat(first.lastEntry()).isNotEqualTo(second.lastEntry());
        assertThat(first.writtenAt(1)).isEqualTo(T0.plusSeconds(1));
        assertThat(second.writtenAt(1)).isEqualTo(T0.plusSeconds(2));
        assertThat(first.endsWith(second.lastEntry())).isFalse();
        assertThat(second.indexOf(first.lastEntry())).isEqualTo(-1);
        assertThat(second.indexOf(second.lastEntry())).isEqualTo(1);
        assertThat(second.chainAfter(2)).isNotEqualTo(first.chainAfter(2));
        assertThat(base.chainAfter(1)).isEqualTo(first.chainAfter(1)).isEqualTo(second.chainAfter(1));
    }

    @Test
    void aLongHistoryExtendedOneEntryAtATimeReadsBackEveryVersion() {
        var logs = new ArrayList<KnownLog>();
        KnownLog log = KnownLog.empty();
        for (int i = 0; i < 1_000; i++) {
            log = extend(log, T0.plusSeconds(i), "m" + i);
            logs.add(log);
        }
        for (int i = 0; i < logs.size(); i += 97) {
            KnownLog version = logs.get(i);
            assertThat(version.messageCount()).isEqualTo(i + 1);
            assertThat(version.messages(i, i + 1).get(0).content()).isEqualTo("m" + i);
            assertThat(version.entryEndingAt(i + 1)).isEqualTo(version.lastEntry());
            assertThat(version.oldestWrite()).isEqualTo(T0);
            assertThatThrownBy(() -> version.messages(0, version.messageCount() + 1))
                    .isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> version.writtenAt(version.entryCount()))
                    .isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    @Test
    void aPrefixIsIndependentOfTheLogItWasCutFrom() {
        KnownLog log = extend(extend(extend(KnownLog.empty(), T0, "a"), T0, "b"), T0, "c");
        KnownLog rolledBack = log.prefix(1, new Instant[] {T0.plusSeconds(60)});
        KnownLog edited = extend(rolledBack, T0.plusSeconds(61), "B");
        KnownLog extended = extend(log, T0.plusSeconds(62), "d");

        assertThat(texts(edited)).containsExactly("a", "B");
        assertThat(texts(extended)).containsExactly("a", "b", "c", "d");
        assertThat(edited.writtenAt(0)).isEqualTo(T0.plusSeconds(60));
        assertThat(extended.writtenAt(0)).isEqualTo(T0);
        assertThat(edited.oldestWrite()).isEqualTo(T0.plusSeconds(60));
    }

    @Test
    void aLogReadBackWithUnknownWriteTimesHasNoOldestWrite() {
        KnownLog built = extend(KnownLog.empty(), T0, "a");
        var known = new KnownLog(
                built.messages(0, 1),
                built.entries(),
                List.of(built.chainAfter(1)),
                java.util.Arrays.asList((Instant) null),
                java.util.Arrays.asList((String) null));

        assertThat(known.oldestWrite()).isNull();
        assertThat(extend(known, T0, "b").oldestWrite()).isNull();
        assertThat(known.sharedEntries(List.of(Message.user("a"), Message.user("b"))))
                .isEqualTo(1);
        assertThat(known.sharedEntries(List.of(Message.user("z")))).isZero();
    }

    @Test
    void theMessagesOfALogCannotBeChangedThroughItsViews() {
        KnownLog log = extend(KnownLog.empty(), T0, "a", "b");

        assertThatThrownBy(() -> log.messages(0, 2).set(0, Message.user("planted")))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> log.entries().set(0, null)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void anEntryThatDoesNotFollowTheLogIsRefused() {
        KnownLog log = extend(KnownLog.empty(), T0, "a");
        List<Message> added = List.of(Message.user("b"));
        LogEntryId wrong = LogEntryId.of(2, 3, log.chainAfter(1), hasher.next(log.chainAfter(1), added));

        assertThatThrownBy(() -> log.append(wrong, new byte[32], T0, added, new byte[0]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not follow");
    }

    @Test
    void racingAppendsFromOneLogEachKeepTheirOwnMessages() throws Exception {
        KnownLog base = extend(KnownLog.empty(), T0, "base");
        int writers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            for (int round = 0; round < 200; round++) {
                var start = new CountDownLatch(1);
                var results = new ArrayList<Future<KnownLog>>();
                for (int w = 0; w < writers; w++) {
                    String text = "w" + w + "-" + round;
                    results.add(pool.submit(() -> {
                        start.await();
                        return extend(extend(base, T0, text), T0, text + "'");
                    }));
                }
                start.countDown();
                for (int w = 0; w < writers; w++) {
                    String text = "w" + w + "-" + round;
                    assertThat(texts(results.get(w).get())).containsExactly("base", text, text + "'");
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private KnownLog extend(KnownLog log, Instant at, String... texts) {
        var added = new ArrayList<Message>();
        for (String text : texts) {
            added.add(Message.user(text));
        }
        byte[] start = log.chainAfter(log.entryCount());
        byte[] end = hasher.next(start, added);
        LogEntryId entry = LogEntryId.of(log.messageCount(), log.messageCount() + added.size(), start, end);
        return log.append(entry, end, at, added, new byte[0]);
    }

    private static List<String> texts(KnownLog log) {
        return log.messages(0, log.messageCount()).stream()
                .map(Message::content)
                .toList();
    }
}
