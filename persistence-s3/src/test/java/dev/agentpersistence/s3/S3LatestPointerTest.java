package dev.agentpersistence.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.s3.internal.KeyLayout;
import dev.agentpersistence.s3.internal.KeyParts;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.Checkpoints;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * The latest pointer {@code l/A}: latest reads it and the body it names, and falls back to the listing whenever it is
 * missing (data written before it existed), ahead of its body (a save cut between the two, a deletion) or damaged,
 * without ever answering an older, deleted or wrong checkpoint.
 */
class S3LatestPointerTest {
    private static final String PREFIX = "app";
    private static final KeyLayout LAYOUT = new KeyLayout(PREFIX);

    @RegisterExtension
    static final S3ProxyExtension S3 = new S3ProxyExtension();

    @RegisterExtension
    final LoggedBucket s3 = new LoggedBucket(S3);

    private StorageShell provider;

    @BeforeEach
    void setUp() {
        provider = s3.open(PREFIX);
    }

    private static String pointerKey(String agentId) {
        return LAYOUT.pointerKey(KeyParts.encode(agentId));
    }

    /** The pointer's content, or null when there is none. */
    private String pointer(String agentId) {
        try {
            return S3.server()
                    .admin()
                    .getObjectAsBytes(b -> b.bucket(s3.bucket()).key(pointerKey(agentId)))
                    .asUtf8String();
        } catch (NoSuchKeyException e) {
            return null;
        }
    }

    private void setPointer(String agentId, String content) {
        S3.server()
                .admin()
                .putObject(b -> b.bucket(s3.bucket()).key(pointerKey(agentId)), RequestBody.fromString(content));
    }

    private void removePointer(String agentId) {
        S3.server().admin().deleteObject(b -> b.bucket(s3.bucket()).key(pointerKey(agentId)));
    }

    private Optional<Long> latest(String agentId) {
        return provider.getLatestCheckpoint(agentId).map(AgentCheckpoint::version);
    }

    private void save(String agentId, long... versions) {
        for (long version : versions) {
            provider.saveCheckpoint(agentId, Checkpoints.simple(agentId, version));
        }
    }

    @Test
    void dataWrittenBeforeThePointerExistedKeepsReadingAndGetsAPointer() {
        // Earlier versions of the provider wrote exactly these objects, without l/A.
        save("old", 0, 1, 2, 20, 3);
        removePointer("old");
        s3.log().take();

        assertThat(latest("old")).contains(20L);
        assertThat(s3.log().take())
                .startsWith("GetObject", "ListObjectsV2", "GetObject"); // then the pointer is written
        assertThat(pointer("old")).isEqualTo("1\n20");
        assertThat(latest("old")).contains(20L);
        assertThat(s3.log().take()).containsExactly("GetObject", "GetObject");

        // A save onto old data starts the pointer from the newest listed body, not from its own lower version.
        removePointer("old");
        save("old", 15);
        assertThat(pointer("old")).isEqualTo("1\n20");
        assertThat(latest("old")).contains(20L);
        assertThat(provider.getCheckpoints("old"))
                .extracting(AgentCheckpoint::version)
                .containsExactly(0L, 1L, 2L, 3L, 15L, 20L);
    }

    @Test
    void aPointerAheadOfItsBodyFallsBackToTheListingAndIsNeverLowered() {
        save("agent", 0, 1, 2, 3, 4);
        setPointer("agent", "1\n9"); // a save of version 9 that stopped after raising the pointer, before its body
        assertThat(latest("agent")).contains(4L);
        assertThat(pointer("agent")).isEqualTo("1\n9");

        save("agent", 5);
        assertThat(latest("agent")).contains(5L);
        assertThat(pointer("agent")).isEqualTo("1\n9");

        save("agent", 9);
        s3.log().take();
        assertThat(latest("agent")).contains(9L);
        assertThat(s3.log().take()).containsExactly("GetObject", "GetObject");
    }

    @Test
    void deletedCheckpointsAreNeverReturned() {
        save("agent", 0, 1, 2, 3, 4);
        assertThat(provider.deleteCheckpointsBefore("agent", 3)).isEqualTo(3);
        assertThat(latest("agent")).contains(4L);

        assertThat(provider.deleteCheckpointsBefore("agent", 5)).isEqualTo(2); // the pointed version too
        assertThat(latest("agent")).isEmpty();
        save("agent", 2);
        assertThat(latest("agent")).contains(2L);

        assertThat(provider.deleteCheckpoints("agent")).isEqualTo(1);
        assertThat(pointer("agent")).isNull();
        assertThat(latest("agent")).isEmpty();
        save("agent", 1);
        assertThat(pointer("agent")).isEqualTo("1\n1");
        s3.log().take();
        assertThat(latest("agent")).contains(1L);
        assertThat(s3.log().take()).containsExactly("GetObject", "GetObject");

        // deleted while this provider remembers the pointer's ETag: the conditional PUT finds nothing to replace
        assertThat(provider.deleteCheckpoints("agent")).isEqualTo(1);
        save("agent", 3);
        assertThat(pointer("agent")).isEqualTo("1\n3");
        assertThat(latest("agent")).contains(3L);
    }

    @Test
    void aDamagedPointerIsListedAroundAndRepairedByReadersAndSaves() {
        save("agent", 0, 1, 2, 3, 4);
        for (String damaged : List.of("garbage", "", "1\n", "1\n-3", "1\n4x", "2\n100", "1\n99999999999999999999")) {
            setPointer("agent", damaged);
            assertThat(latest("agent")).as("pointer %s", damaged).contains(4L);
            assertThat(pointer("agent")).as("repaired from %s", damaged).isEqualTo("1\n4");
        }
        setPointer("agent", "garbage");
        save("agent", 2_000, 5);
        assertThat(pointer("agent")).isEqualTo("1\n2000");
        assertThat(latest("agent")).contains(2_000L);

        // A damaged pointer over bodies newer than the saved version: the listing decides, nothing is hidden.
        setPointer("agent", "1\nseven");
        save("agent", 6);
        assertThat(pointer("agent")).isEqualTo("1\n2000");
        assertThat(latest("agent")).contains(2_000L);
    }

    @Test
    void concurrentWritersOfSeveralInstancesNeverLeaveThePointerBehindACompletedSave() throws Exception {
        String agentId = "racing";
        int instances = 3;
        int threadsEach = 3;
        int versions = 150;
        var order = new ArrayList<Long>();
        for (long v = 0; v < versions; v++) {
            order.add(v);
        }
        Collections.shuffle(order, new Random(42));
        var next = new AtomicInteger();
        var completed = new AtomicLong(-1);
        var stop = new AtomicBoolean();
        var failures = new ConcurrentLinkedQueue<String>();
        var providers = new ArrayList<StorageShell>();
        for (int i = 0; i < instances + 1; i++) {
            providers.add(S3Storage.builder(
                            S3.server().config(s3.bucket()).prefix(PREFIX).build())
                    .build());
        }
        ExecutorService pool = Executors.newFixedThreadPool(instances * threadsEach + 1);
        try {
            var reader = providers.get(instances);
            Future<?> reads = pool.submit(() -> {
                while (!stop.get()) {
                    long floor = completed.get();
                    long seen = reader.getLatestCheckpoint(agentId)
                            .map(AgentCheckpoint::version)
                            .orElse(-1L);
                    if (seen < floor) {
                        failures.add("latest was " + seen + " after version " + floor + " was saved");
                    }
                }
            });
            var writes = new ArrayList<Future<?>>();
            for (int t = 0; t < instances * threadsEach; t++) {
                var writer = providers.get(t % instances);
                writes.add(pool.submit(() -> {
                    for (int i; (i = next.getAndIncrement()) < versions; ) {
                        long version = order.get(i);
                        writer.saveCheckpoint(agentId, Checkpoints.simple(agentId, version));
                        completed.accumulateAndGet(version, Math::max);
                    }
                }));
            }
            for (var write : writes) {
                write.get();
            }
            stop.set(true);
            reads.get();
        } finally {
            stop.set(true);
            pool.shutdownNow();
            providers.forEach(StorageShell::close);
        }
        assertThat(failures).isEmpty();
        assertThat(pointer(agentId)).isEqualTo("1\n" + (versions - 1));
        assertThat(latest(agentId)).contains(versions - 1L);
        assertThat(provider.getCheckpoints(agentId)).hasSize(versions);
    }

    private static String bodyKey(String agentId, long version) {
        return LAYOUT.bodyKey(KeyParts.encode(agentId), version);
    }

    /** A provider whose client runs {@code steps} in order, each just before its request. */
    private StorageShell interrupted(Steps steps) {
        S3Client cut = S3.server().interceptedClient(steps);
        return S3Storage.builder(S3.server().config(s3.bucket()).prefix(PREFIX).build(), cut)
                .build();
    }

    @Test
    void aSaveCutAfterItsBodyIsTheLatestForEveryReader() {
        save("agent", 0, 1);
        var steps = new Steps()
                .then("PutObject", bodyKey("agent", 2), () -> {})
                .then("GetObject", pointerKey("agent"), Steps::crash); // the check of the pointer after the body
        try (var cut = interrupted(steps)) {
            assertThatThrownBy(() -> cut.saveCheckpoint("agent", Checkpoints.simple("agent", 2)))
                    .hasMessageContaining("cut");
        }
        assertThat(steps.pending()).isZero();
        assertThat(latest("agent")).contains(2L);
        assertThat(pointer("agent")).isEqualTo("1\n2");
    }

    @Test
    void aSaveCutBeforeItsBodyLeavesThePointerAheadAndTheRetryHealsIt() {
        save("agent", 0, 1);
        var steps = new Steps().then("PutObject", bodyKey("agent", 2), Steps::crash);
        try (var cut = interrupted(steps)) {
            assertThatThrownBy(() -> cut.saveCheckpoint("agent", Checkpoints.simple("agent", 2)))
                    .hasMessageContaining("cut");
        }
        assertThat(pointer("agent")).isEqualTo("1\n2");
        assertThat(latest("agent")).contains(1L);
        assertThat(provider.getCheckpoints("agent"))
                .extracting(AgentCheckpoint::version)
                .containsExactly(0L, 1L);

        save("agent", 2);
        s3.log().take();
        assertThat(latest("agent")).contains(2L);
        assertThat(s3.log().take()).containsExactly("GetObject", "GetObject");
    }

    @Test
    void aSaveRacingTheDeletionOfItsAgentRaisesThePointerAgainAfterItsBody() {
        save("agent", 0, 1, 2, 3, 4);
        // Between the save's pointer raise and its body: the agent is deleted and a lower version saved,
        // which creates a new pointer from a listing that cannot hold the body about to be written.
        var steps = new Steps().then("PutObject", bodyKey("agent", 5), () -> {
            assertThat(provider.deleteCheckpoints("agent")).isEqualTo(5);
            save("agent", 1);
            assertThat(pointer("agent")).isEqualTo("1\n1");
        });
        try (var racing = interrupted(steps)) {
            racing.saveCheckpoint("agent", Checkpoints.simple("agent", 5));
        }
        assertThat(steps.pending()).isZero();
        assertThat(pointer("agent")).isEqualTo("1\n5");
        assertThat(latest("agent")).contains(5L);
        assertThat(provider.getCheckpoints("agent"))
                .extracting(AgentCheckpoint::version)
                .containsExactly(1L, 5L);
    }

    /** Actions run once each, in order, just before the first request of an operation on a key. */
    private static final class Steps implements ExecutionInterceptor {
        private record Step(String operation, String key, Runnable action) {}

        private final List<Step> steps = new CopyOnWriteArrayList<>();

        Steps then(String operation, String key, Runnable action) {
            steps.add(new Step(operation, key, action));
            return this;
        }

        int pending() {
            return steps.size();
        }

        static void crash() {
            throw new IllegalStateException("cut here, as by a crash");
        }

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            if (steps.isEmpty()) {
                return;
            }
            Step next = steps.get(0);
            if (next.operation().equals(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME))
                    && next.key().equals(keyOf(context.request()))) {
                steps.remove(0);
                next.action().run();
            }
        }

        private static String keyOf(SdkRequest request) {
            if (request instanceof PutObjectRequest put) {
                return put.key();
            }
            return request instanceof GetObjectRequest get ? get.key() : null;
        }
    }
}
