package dev.agentpersistence.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.queue.QueueItem;
import dev.agentpersistence.queue.QueueStore;
import dev.agentpersistence.s3.internal.KeyLayout;
import dev.agentpersistence.s3.internal.KeyParts;
import dev.agentpersistence.storage.StorageShell;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * What the kit's queue group cannot see: the objects beside the items (open-item markers, holds, the finished index) as
 * laid out, what each call costs, leftovers of interrupted writes, a trim racing a retry, tombstones, corrupt items.
 */
class S3QueuesTest {
    private static final String PREFIX = "app";
    private static final Instant T0 = Instant.parse("2026-01-02T03:04:05.123456789Z");
    private static final String QUEUE = "runs";
    private static final String Q = KeyParts.encode(QUEUE);

    @RegisterExtension
    static final S3ProxyExtension S3 = new S3ProxyExtension();

    @RegisterExtension
    final LoggedBucket s3 = new LoggedBucket(S3);

    private StorageShell provider;
    private QueueStore queues;
    private ExecutorService pool;

    @BeforeEach
    void setUp() {
        provider = s3.open(PREFIX);
        queues = provider.queues().orElseThrow();
        pool = Executors.newFixedThreadPool(2);
    }

    @AfterEach
    void tearDown() {
        pool.shutdownNow();
    }

    private static QueueItem item(String id, long version, Instant runnable, boolean finished) {
        return new QueueItem(id, version, T0, runnable, finished, ("v" + version).getBytes(StandardCharsets.UTF_8));
    }

    private List<String> keys(String folder) {
        String prefix = PREFIX + "/" + folder + "/" + Q + "/";
        return S3
                .server()
                .admin()
                .listObjectsV2Paginator(b -> b.bucket(s3.bucket()).prefix(prefix))
                .contents()
                .stream()
                .map(S3Object::key)
                .map(key -> key.substring(prefix.length()))
                .toList();
    }

    private void plant(String key, String content) {
        S3.server().admin().putObject(b -> b.bucket(s3.bucket()).key(key), RequestBody.fromString(content));
    }

    private static String marker(String id, String generation, long version, Instant runnable) {
        return KeyLayout.sortableTime(QueueItem.toEpochNanos(T0)) + "." + KeyParts.encode(id) + "." + generation + "."
                + version + "." + (runnable == null ? "-" : KeyLayout.sortableTime(QueueItem.toEpochNanos(runnable)));
    }

    /** The generation of item {@code id}, from its object's header. */
    private String generation(String id) {
        String stored = S3.server()
                .admin()
                .getObjectAsBytes(b -> b.bucket(s3.bucket()).key(PREFIX + "/q/" + Q + "/" + KeyParts.encode(id)))
                .asUtf8String();
        return stored.split("\n")[2].split(" ")[0];
    }

    @Test
    void markersHoldsAndTheFinishedIndexFollowTheLayoutAndEachCallItsCost() {
        String a = KeyParts.encode("a");
        assertThat(queues.write(QUEUE, item("a", 1, T0, false))).isTrue();
        assertThat(s3.log().take()).containsExactly("PutObject", "PutObject"); // marker, item
        String generation = generation("a");
        assertThat(generation).matches("[0-9a-f]{16}");
        assertThat(keys("q")).containsExactly(a);
        assertThat(keys("qo")).containsExactly(marker("a", generation, 1, T0));
        String stored = S3.server()
                .admin()
                .getObjectAsBytes(b -> b.bucket(s3.bucket()).key(PREFIX + "/q/" + Q + "/" + a))
                .asUtf8String();
        assertThat(stored)
                .matches(Pattern.compile("queue-item 1\na\n" + generation + " [0-9a-f]{16} 1 "
                        + QueueItem.toEpochNanos(T0) + " " + QueueItem.toEpochNanos(T0) + " 0\n"
                        + "#crc32c:[0-9a-f]{8}\nv1")); // the body in the store's layers: a checksum by default

        Instant now = T0.plusSeconds(1);
        assertThat(queues.claim(QUEUE, now, now.plusSeconds(60), 1))
                .extracting(QueueItem::version)
                .containsExactly(1L);
        // the markers, the item and its hold side by side, the hold written, the item read again
        assertThat(s3.log().take())
                .containsExactly("ListObjectsV2", "GetObject", "GetObject", "PutObject", "GetObject");
        assertThat(keys("qh")).containsExactly(a);
        assertThat(queues.runnable(QUEUE, now, 10)).isEmpty();
        assertThat(s3.log().take()).containsExactly("ListObjectsV2", "GetObject", "GetObject");

        assertThat(queues.write(QUEUE, item("a", 2, null, false))).isTrue();
        // the item, the new marker, the item, the marker of version 1 deleted
        assertThat(s3.log().take()).containsExactly("GetObject", "PutObject", "PutObject", "DeleteObjects");
        assertThat(keys("qo")).containsExactly(marker("a", generation, 2, null));
        assertThat(queues.runnable(QUEUE, now, 10)).isEmpty();
        assertThat(s3.log().take())
                .as("no item read: its marker says it is not runnable")
                .containsExactly("ListObjectsV2");

        assertThat(queues.write(QUEUE, item("a", 3, null, true))).isTrue();
        assertThat(s3.log().take()).containsExactlyInAnyOrder("GetObject", "PutObject", "DeleteObjects", "PutObject");
        assertThat(keys("qo")).isEmpty();
        assertThat(keys("qf")).containsExactly(KeyLayout.sortableTime(QueueItem.toEpochNanos(T0)) + "." + a);

        assertThat(queues.write(QUEUE, item("a", 4, now, false))).as("a retry").isTrue();
        assertThat(keys("qf")).as("the entry of a finished item only").isEmpty();
        assertThat(keys("qo")).containsExactly(marker("a", generation, 4, now));
        assertThat(queues.write(QUEUE, item("a", 5, null, true))).isTrue();
        s3.log().take();
        assertThat(queues.deleteFinished(QUEUE, 1)).isZero();
        assertThat(s3.log().take()).as("no more entries than kept: one listing").containsExactly("ListObjectsV2");
        assertThat(queues.deleteFinished(QUEUE, 0)).isEqualTo(1);
        // entries, the item, its tombstone; the markers, then hold and markers, the item, the entry deleted
        assertThat(s3.log().take())
                .containsExactly(
                        "ListObjectsV2",
                        "GetObject",
                        "PutObject",
                        "ListObjectsV2",
                        "DeleteObjects",
                        "DeleteObjects",
                        "DeleteObjects");
        for (String folder : List.of("q", "qo", "qh", "qf")) {
            assertThat(keys(folder)).as(folder).isEmpty();
        }
        assertThat(queues.write(QUEUE, item("a", 1, T0, false)))
                .as("a deleted id is free again")
                .isTrue();
        assertThat(generation("a")).isNotEqualTo(generation);
    }

    @Test
    void leftoversOfInterruptedWritesStillClaimCorrectly() {
        assertThat(queues.write(QUEUE, item("ahead", 1, T0, false))).isTrue();
        assertThat(queues.write(QUEUE, item("waiting", 1, null, false))).isTrue();
        for (long version = 1; version <= 3; version++) {
            assertThat(queues.write(QUEUE, item("lower", version, T0, false))).isTrue();
        }
        String ahead = generation("ahead");
        String waiting = generation("waiting");
        String lower = generation("lower");
        String markers = PREFIX + "/qo/" + Q + "/";
        // cut between marker and item: markers of versions whose item was never written
        plant(markers + marker("ahead", ahead, 2, null), "");
        plant(markers + marker("waiting", waiting, 2, T0), "");
        // cut after the item: the markers of the versions before were not deleted
        plant(markers + marker("lower", lower, 1, T0), "");
        plant(markers + marker("lower", lower, 2, T0), "");
        // a first write cut after its marker, of a generation that never got its item (young: left alone)
        plant(markers + marker("never", "0123456789abcdef", 1, T0), "");

        Instant now = T0.plusSeconds(1);
        assertThat(queues.runnable(QUEUE, now, 10))
                .extracting(QueueItem::id, QueueItem::version)
                .containsExactly(tuple("ahead", 1L), tuple("lower", 3L));
        assertThat(queues.claim(QUEUE, now, now.plusSeconds(60), 10))
                .extracting(QueueItem::id, QueueItem::version)
                .containsExactly(tuple("ahead", 1L), tuple("lower", 3L));
        assertThat(keys("qo"))
                .as("the claim deleted the markers below their item's version")
                .containsExactlyInAnyOrder(
                        marker("ahead", ahead, 1, T0),
                        marker("ahead", ahead, 2, null),
                        marker("waiting", waiting, 1, null),
                        marker("waiting", waiting, 2, T0),
                        marker("lower", lower, 3, T0),
                        marker("never", "0123456789abcdef", 1, T0));
        assertThat(queues.write(QUEUE, item("ahead", 2, null, false)))
                .as("the version after a marker ahead of its item")
                .isTrue();
        assertThat(queues.claim(QUEUE, now, now.plusSeconds(60), 10)).isEmpty();
    }

    @Test
    void aTrimRacingARetryNeverDeletesTheRetriedItem() throws Exception {
        var barrier = new CyclicBarrier(2);
        int retried = 0;
        int deleted = 0;
        for (int round = 0; round < 40; round++) {
            String id = "run-" + round;
            assertThat(queues.write(QUEUE, item(id, 1, T0, false))).isTrue();
            assertThat(queues.write(QUEUE, item(id, 2, null, true))).isTrue();
            Future<Integer> trim = pool.submit(() -> {
                barrier.await();
                return queues.deleteFinished(QUEUE, 0);
            });
            Future<Boolean> retry = pool.submit(() -> {
                barrier.await();
                return queues.write(QUEUE, item(id, 3, T0, false));
            });
            boolean stored = retry.get();
            int trimmed = trim.get();
            if (stored) {
                retried++;
                assertThat(trimmed).as("round %d", round).isZero();
                assertThat(queues.item(QUEUE, id)).map(QueueItem::version).contains(3L);
                assertThat(queues.runnable(QUEUE, T0, 100))
                        .as("the retry is claimable")
                        .extracting(QueueItem::id)
                        .contains(id);
                assertThat(queues.write(QUEUE, item(id, 4, null, true))).isTrue();
                assertThat(queues.deleteFinished(QUEUE, 0)).isEqualTo(1);
            } else {
                deleted++;
                assertThat(trimmed).as("round %d", round).isEqualTo(1);
                assertThat(queues.item(QUEUE, id)).isEmpty();
            }
        }
        assertThat(retried + deleted).isEqualTo(40);
        // a retry that lost may have put its marker after the trim listed them: the next claim finds it stale
        assertThat(queues.claim(QUEUE, T0, T0.plusSeconds(60), 100)).isEmpty();
        for (String folder : List.of("q", "qo", "qh", "qf")) {
            assertThat(keys(folder)).as(folder).isEmpty();
        }
    }

    @Test
    void aTombstonedItemReadsAsAbsent() {
        assertThat(queues.write(QUEUE, item("gone", 1, T0, false))).isTrue();
        assertThat(queues.write(QUEUE, item("gone", 2, null, true))).isTrue();
        String generation = generation("gone");
        // a trim cut after its tombstone
        plant(
                PREFIX + "/q/" + Q + "/" + KeyParts.encode("gone"),
                "queue-item-deleted 1\ngone\n" + generation + " 2 00112233aabbccdd\n");
        assertThat(queues.item(QUEUE, "gone")).isEmpty();
        assertThat(queues.items(QUEUE)).isEmpty();
        assertThat(queues.runnable(QUEUE, T0, 10)).isEmpty();
        assertThat(queues.write(QUEUE, item("gone", 3, T0, false))).isFalse();
        assertThat(queues.write(QUEUE, item("gone", 1, T0, false)))
                .as("not while its deletion is under way")
                .isFalse();
        queues.hold(QUEUE, "gone", T0.plusSeconds(60));
        assertThat(keys("qh")).isEmpty();
        assertThat(queues.deleteFinished(QUEUE, 0))
                .as("a young tombstone is another trim's")
                .isZero();
        assertThat(keys("qo")).as("the first write's own marker, deleted again").isEmpty();
    }

    @Test
    void aMalformedItemIsCorruptAndNamesItsLocation() {
        assertThat(queues.write(QUEUE, item("fine", 1, T0, false))).isTrue();
        String key = PREFIX + "/q/" + Q + "/" + KeyParts.encode("bad");
        String location = "s3://" + s3.bucket() + "/" + key;
        for (String content : List.of(
                "garbage",
                "queue-item 1\nbad\n",
                "queue-item 1\nbad\n0123456789abcdef 0123456789abcdef x 1 - 0\n",
                "queue-item 1\nother\n0123456789abcdef 0123456789abcdef 1 1 - 0\nbody")) {
            plant(key, content);
            assertThatThrownBy(() -> queues.item(QUEUE, "bad"))
                    .as(content)
                    .isInstanceOfSatisfying(CorruptCheckpointException.class, e -> {
                        assertThat(e.location()).isEqualTo(location);
                        assertThat(e.agentId()).isEqualTo(QUEUE);
                        assertThat(e.checkpointId()).isEqualTo("bad");
                    })
                    .hasMessageContaining("queue 'runs'");
            assertThatThrownBy(() -> queues.items(QUEUE)).isInstanceOf(CorruptCheckpointException.class);
        }
        plant(key, "queue-item 1\nbad\n0123456789abcdef 0123456789abcdef 1 1 - 0\nbody");
        assertThat(queues.item(QUEUE, "bad")).map(QueueItem::version).contains(1L);
    }

    @Test
    void withoutConditionalWritesThereAreNoQueues() {
        var withoutConditions = s3.open(S3.server()
                .config(s3.bucket())
                .prefix(PREFIX)
                .conditionalWrites(false)
                .build());
        assertThat(withoutConditions.queues()).isEmpty();
        assertThat(provider.queues()).isPresent();
    }
}
