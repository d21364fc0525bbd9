package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.InvalidIdentifierException;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.ReadOnlyStorageException;
import dev.agentpersistence.codec.DocumentLayers;
import dev.agentpersistence.queue.QueueItem;
import dev.agentpersistence.queue.QueueStore;
import dev.agentpersistence.storage.StorageSettings;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The native queues of providers that have them ({@link PersistenceStorageProvider#queues()}): each item written by
 * compare-and-set on its own version, listed in submission order, runnable items found by time, finished ones trimmed;
 * aborted with the reason for providers without them.
 */
abstract class QueueContract extends Contract {
    private static final Instant T0 = Instant.parse("2026-01-02T03:04:05.123456789Z");

    QueueContract(KitSession session) {
        super(session);
    }

    private QueueStore queues() {
        return queues(provider());
    }

    private QueueStore queues(PersistenceStorageProvider<CheckpointFilter> provider) {
        if (provider.queues().isEmpty()) {
            Assumptions.abort("Native queues not offered by " + providerName()
                    + ": pipelines keep their queues in checkpoints there");
        }
        return provider.queues().get();
    }

    private static QueueItem item(String id, long version, Instant submitted, Instant runnable, String body) {
        return new QueueItem(id, version, submitted, runnable, false, body.getBytes(StandardCharsets.UTF_8));
    }

    private static String body(QueueItem item) {
        return new String(item.body(), StandardCharsets.UTF_8);
    }

    @Test
    @DisplayName("an item round-trips exactly: version, times to the nanosecond, null runnable time, body bytes")
    void roundTrip() {
        String queue = agent("queue-round-trip");
        var first = item("run-1", 1, T0, T0.plusNanos(1), "{\"input\":\"é\\u0000\"}");
        assertThat(queues().write(queue, first)).isTrue();
        assertThat(queues().item(queue, "run-1")).contains(first);
        var waiting = new QueueItem("run-1", 2, T0, null, false, new byte[0]);
        assertThat(queues().write(queue, waiting)).isTrue();
        assertThat(queues().item(queue, "run-1")).contains(waiting);
        assertThat(queues().item(queue, "other")).isEmpty();
        assertThat(queues().items(agent("queue-unknown"))).isEmpty();
        if (sharesStorage()) {
            assertThat(queues(newProvider()).item(queue, "run-1")).contains(waiting);
        }
    }

    @Test
    @DisplayName("a write stores only the next version: a second first write and a stale write store nothing")
    void compareAndSet() {
        String queue = agent("queue-cas");
        assertThat(queues().write(queue, item("a", 1, T0, T0, "one"))).isTrue();
        assertThat(queues().write(queue, item("a", 1, T0, T0, "another one"))).isFalse();
        assertThat(queues().write(queue, item("a", 3, T0, T0, "a skipped version")))
                .isFalse();
        assertThat(queues().write(queue, item("a", 2, T0, T0, "two"))).isTrue();
        assertThat(queues().write(queue, item("a", 2, T0, T0, "two again"))).isFalse();
        assertThat(queues().item(queue, "a")).map(QueueContract::body).contains("two");
        assertThat(queues().items(queue)).hasSize(1);
    }

    @Test
    @DisplayName("of 12 writers that read one version and write the next at once, exactly one stores")
    void racingWriters() {
        String queue = agent("queue-race");
        assertThat(queues().write(queue, item("contended", 1, T0, T0, "start"))).isTrue();
        var winners = new AtomicInteger();
        var outcomes = Race.run(12, racer -> {
            var provider = sharesStorage() && racer % 2 == 1 ? newProvider() : provider();
            if (queues(provider).write(queue, item("contended", 2, T0, T0, "racer " + racer))) {
                winners.incrementAndGet();
            }
        });
        assertThat(outcomes).allMatch(Race.Outcome::succeeded);
        assertThat(winners).hasValue(1);
        assertThat(queues().item(queue, "contended").orElseThrow().version()).isEqualTo(2);
    }

    @Test
    @DisplayName("items list by submission time then id; runnable ones by time, without finished or waiting ones")
    void orderAndRunnable() {
        String queue = agent("queue-order");
        queues().write(queue, item("b", 1, T0.plusSeconds(1), T0.plusSeconds(1), "b"));
        queues().write(queue, item("a", 1, T0.plusSeconds(1), T0.plusSeconds(1), "a"));
        queues().write(queue, item("z", 1, T0, T0.plusSeconds(60), "z: a retry in a minute"));
        queues().write(queue, item("w", 1, T0.plusSeconds(2), null, "w: waiting"));
        queues().write(queue, new QueueItem("f", 1, T0.plusSeconds(3), T0, true, new byte[] {1}));
        queues().write(agent("queue-order-other"), item("x", 1, T0, T0, "another queue"));
        assertThat(queues().items(queue)).extracting(QueueItem::id).containsExactly("z", "a", "b", "w", "f");
        Instant now = T0.plusSeconds(5);
        assertThat(queues().runnable(queue, now, 10)).extracting(QueueItem::id).containsExactly("a", "b");
        assertThat(queues().runnable(queue, now, 1)).extracting(QueueItem::id).containsExactly("a");
        assertThat(queues().runnable(queue, T0.plusSeconds(60), 10))
                .extracting(QueueItem::id)
                .containsExactly("z", "a", "b");
        assertThat(queues().runnable(queue, T0, 10)).isEmpty();
    }

    @Test
    @DisplayName("a claim takes the oldest runnable items nobody holds and hides them until its hold ends")
    void claimsAndHolds() {
        String queue = agent("queue-claims");
        for (int i = 0; i < 8; i++) {
            queues().write(queue, item("c" + i, 1, T0.plusSeconds(i), T0, "run " + i));
        }
        Instant now = T0.plusSeconds(10);
        Instant until = now.plusSeconds(60);
        assertThat(queues().claim(queue, now, until, 3))
                .extracting(QueueItem::id)
                .containsExactly("c0", "c1", "c2");
        assertThat(queues().runnable(queue, now, 10))
                .extracting(QueueItem::id)
                .containsExactly("c3", "c4", "c5", "c6", "c7");
        assertThat(queues().claim(queue, now, until, 3))
                .extracting(QueueItem::id)
                .containsExactly("c3", "c4", "c5");
        assertThat(queues().item(queue, "c0").orElseThrow().version())
                .as("a hold changes no version")
                .isEqualTo(1);
        queues().hold(queue, "c1", now);
        queues().hold(queue, "unknown", until);
        assertThat(queues().item(queue, "unknown")).isEmpty();
        assertThat(queues().runnable(queue, now, 10)).extracting(QueueItem::id).containsExactly("c1", "c6", "c7");
        assertThat(queues().runnable(queue, until, 10))
                .as("when the holds ended")
                .hasSize(8);
        queues().hold(queue, "c7", until);
        assertThat(queues().claim(queue, now, until, 10))
                .extracting(QueueItem::id)
                .containsExactly("c1", "c6");
        assertThat(queues().claim(queue, now, until, 10)).isEmpty();
        if (sharesStorage()) {
            assertThat(queues(newProvider()).runnable(queue, now, 10)).isEmpty();
        }
    }

    @Test
    @DisplayName("of 12 workers claiming one item each at once, no two get the same item")
    void racingClaimers() {
        String queue = agent("queue-claim-race");
        for (int i = 0; i < 12; i++) {
            queues().write(queue, item("r" + i, 1, T0.plusSeconds(i), T0, "run " + i));
        }
        var claimed = Collections.synchronizedList(new ArrayList<String>());
        var outcomes = Race.run(12, racer -> {
            var provider = sharesStorage() && racer % 2 == 1 ? newProvider() : provider();
            queues(provider)
                    .claim(queue, T0.plusSeconds(60), T0.plusSeconds(600), 1)
                    .forEach(item -> claimed.add(item.id()));
        });
        assertThat(outcomes).allMatch(Race.Outcome::succeeded);
        assertThat(claimed).isNotEmpty().doesNotHaveDuplicates();
        assertThat(queues().runnable(queue, T0.plusSeconds(60), 12)).hasSize(12 - claimed.size());
    }

    @Test
    @DisplayName("deleteFinished keeps the finished items submitted last and every item not finished")
    void deleteFinished() {
        String queue = agent("queue-trim");
        for (int i = 0; i < 7; i++) {
            boolean finished = i % 2 == 0;
            queues().write(
                            queue,
                            new QueueItem("r" + i, 1, T0.plusSeconds(i), finished ? null : T0, finished, new byte[0]));
        }
        assertThat(queues().deleteFinished(queue, 2)).isEqualTo(2);
        assertThat(queues().items(queue)).extracting(QueueItem::id).containsExactly("r1", "r3", "r4", "r5", "r6");
        assertThat(queues().deleteFinished(queue, 2)).isZero();
        assertThat(queues().deleteFinished(queue, 0)).isEqualTo(2);
        assertThat(queues().items(queue)).extracting(QueueItem::id).containsExactly("r1", "r3", "r5");
    }

    @Test
    @DisplayName("hostile queue names and item ids are refused before anything is stored; others stay apart")
    void identifiers() {
        String queue = agent("queue-ids");
        for (String hostile : HostileIds.valid()) {
            assertThat(queues().write(queue, item(hostile, 1, T0, T0, hostile)))
                    .as("item id %s", hostile)
                    .isTrue();
        }
        assertThat(queues().items(queue)).hasSize(HostileIds.valid().size());
        for (String hostile : HostileIds.valid()) {
            assertThat(queues().item(queue, hostile)).map(QueueContract::body).contains(hostile);
        }
        assertThatThrownBy(() -> queues().items("")).isInstanceOf(InvalidIdentifierException.class);
        assertThatThrownBy(() -> queues().item(queue, "a".repeat(300))).isInstanceOf(InvalidIdentifierException.class);
    }

    @Test
    @DisplayName("bodies are kept under the store's layers: written with every layer, read back with the same keys")
    void bodiesUnderLayers() {
        queues();
        var writer = newProvider(KitSettings.everyLayer());
        String queue = agent("queue-layers");
        byte[] secret = "a secret input".repeat(100).getBytes(StandardCharsets.UTF_8);
        assertThat(queues(writer).write(queue, new QueueItem("run", 1, T0, T0, false, secret)))
                .isTrue();
        assertThat(queues(writer).item(queue, "run").orElseThrow().body()).isEqualTo(secret);
        if (sharesStorage()) {
            assertThat(queues(newProvider(KitSettings.everyLayer())).items(queue))
                    .extracting(QueueItem::body)
                    .containsExactly(secret);
        }
        var plain = newProvider(
                StorageSettings.custom().layers(DocumentLayers.none()).build());
        queues(plain).write(queue, item("plain", 1, T0, T0, "a plain marker"));
        String dump = new String(dump(), StandardCharsets.ISO_8859_1); // byte for byte, whatever the encoding
        assertThat(dump).as("the dump covers the queue items").contains("a plain marker");
        assertThat(dump).as("an item body saved encrypted").doesNotContain("a secret input");
    }

    @Test
    @DisplayName("a read-only provider reads queues and refuses every queue write, storing nothing")
    void readOnly() {
        String queue = agent("queue-read-only");
        queues();
        if (!sharesStorage()) {
            Assumptions.abort("a read-only reader of " + providerName() + " would open a store of its own");
        }
        // written and read with every layer, so the reader holds the writer's keys whatever the test's provider writes
        var writer = newProvider(KitSettings.everyLayer());
        assertThat(queues(writer).write(queue, item("run", 1, T0, T0, "kept"))).isTrue();
        var reader = newProvider(
                StorageSettings.from(KitSettings.everyLayer()).readOnly(true).build());
        assertThat(queues(reader).item(queue, "run")).map(QueueContract::body).contains("kept");
        assertThatThrownBy(() -> queues(reader).write(queue, item("run", 2, T0, T0, "changed")))
                .isInstanceOf(ReadOnlyStorageException.class);
        assertThatThrownBy(() -> queues(reader).deleteFinished(queue, 0)).isInstanceOf(ReadOnlyStorageException.class);
        assertThatThrownBy(() -> queues(reader).claim(queue, T0, T0.plusSeconds(60), 1))
                .isInstanceOf(ReadOnlyStorageException.class);
        assertThatThrownBy(() -> queues(reader).hold(queue, "run", T0.plusSeconds(60)))
                .isInstanceOf(ReadOnlyStorageException.class);
        assertThat(queues(writer).claim(queue, T0, T0.plusSeconds(1), 1))
                .as("nothing was held")
                .hasSize(1);
        assertThat(queues(writer).item(queue, "run")).map(QueueContract::body).contains("kept");
    }
}
