package dev.agentpersistence.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.tck.Checkpoints;
import java.util.ArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * What the save protocol and the native queues rely on: S3Proxy 4.1.0 honours {@code If-None-Match: *} and
 * {@code If-Match} on PUT, {@code If-None-Match} atomically under concurrency, {@code If-Match} so in the tests' store
 * ({@link AtomicIfMatchBlobStore}); and the fallback for stores without them still detects sequential conflicts.
 */
class S3ConditionalWritesTest {
    @RegisterExtension
    static final S3ProxyExtension S3 = new S3ProxyExtension();

    @Test
    void s3ProxyRejectsASecondCreateAndAStaleReplace() {
        String bucket = S3.server().newBucket();
        var s3 = S3.server().admin();
        String etag = s3.putObject(b -> b.bucket(bucket).key("k").ifNoneMatch("*"), RequestBody.fromString("first"))
                .eTag();
        assertThatThrownBy(() ->
                        s3.putObject(b -> b.bucket(bucket).key("k").ifNoneMatch("*"), RequestBody.fromString("second")))
                .isInstanceOfSatisfying(
                        S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(412));
        s3.putObject(b -> b.bucket(bucket).key("k").ifMatch(etag), RequestBody.fromString("replaced"));
        assertThatThrownBy(() ->
                        s3.putObject(b -> b.bucket(bucket).key("k").ifMatch(etag), RequestBody.fromString("stale")))
                .isInstanceOfSatisfying(
                        S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(412));
        assertThat(s3.getObjectAsBytes(b -> b.bucket(bucket).key("k")).asUtf8String())
                .isEqualTo("replaced");
    }

    @Test
    void s3ProxyLetsExactlyOneOfSixteenConcurrentCreatesWin() throws Exception {
        String bucket = S3.server().newBucket();
        for (int round = 0; round < 5; round++) {
            String key = "race-" + round;
            assertThat(winnersOfSixteen(bucket, key, put -> put.ifNoneMatch("*")))
                    .as("round %d", round)
                    .isEqualTo(1);
        }
    }

    @Test
    void theTestStoreLetsExactlyOneOfSixteenConcurrentReplacesOfOneVersionWin() throws Exception {
        String bucket = S3.server().newBucket();
        for (int round = 0; round < 20; round++) {
            String key = "cas-" + round;
            String etag = S3.server()
                    .admin()
                    .putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString("first"))
                    .eTag();
            assertThat(winnersOfSixteen(bucket, key, put -> put.ifMatch(etag)))
                    .as("round %d", round)
                    .isEqualTo(1);
        }
    }

    /** How many of 16 PUTs of {@code key} with {@code condition}, released at once, were stored. */
    private static int winnersOfSixteen(String bucket, String key, Consumer<PutObjectRequest.Builder> condition)
            throws Exception {
        var pool = Executors.newFixedThreadPool(16);
        try {
            var start = new CountDownLatch(1);
            var results = new ArrayList<Future<Boolean>>();
            for (int i = 0; i < 16; i++) {
                String body = "writer-" + i;
                results.add(pool.submit(() -> {
                    start.await();
                    try {
                        S3.server()
                                .admin()
                                .putObject(
                                        b -> condition.accept(b.bucket(bucket).key(key)), RequestBody.fromString(body));
                        return true;
                    } catch (S3Exception e) {
                        if (e.statusCode() == 412 || e.statusCode() == 409) {
                            return false;
                        }
                        throw e;
                    }
                }));
            }
            start.countDown();
            int winners = 0;
            for (var result : results) {
                winners += result.get() ? 1 : 0;
            }
            return winners;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void withoutConditionalWritesSequentialConflictsAreStillDetected() {
        try (var provider = S3Storage.builder(S3.server()
                        .config(S3.server().newBucket())
                        .conditionalWrites(false)
                        .build())
                .build()) {
            var checkpoint = Checkpoints.full("agent", 0);
            provider.saveCheckpoint("agent", checkpoint);
            provider.saveCheckpoint("agent", checkpoint);
            var sameVersion =
                    Checkpoints.builder("agent", 0).checkpointId("other").build();
            assertThatThrownBy(() -> provider.saveCheckpoint("agent", sameVersion))
                    .isInstanceOf(CheckpointConflictException.class);
            var sameId = Checkpoints.builder("agent", 1)
                    .checkpointId(checkpoint.checkpointId())
                    .build();
            assertThatThrownBy(() -> provider.saveCheckpoint("agent", sameId))
                    .isInstanceOf(CheckpointConflictException.class);
            // A stale claim (its version went to another id) is taken over through the HEAD-and-compare path.
            provider.saveCheckpoint(
                    "agent",
                    Checkpoints.builder("agent", 2).checkpointId("other").build());
            assertThat(provider.getCheckpoint("agent", "other"))
                    .map(c -> c.version())
                    .contains(2L);
            assertThat(provider.getCheckpoints("agent")).hasSize(2);
        }
    }
}
