package dev.agentpersistence.s3.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.queue.QueueItem;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Leftovers of calls that stopped between two requests are cleaned once older than the leftover age (here one second,
 * judged by the store's clock where it says): a tombstone whose deletion stopped, a first write's marker without its
 * item. Younger ones may belong to a call still under way and are left alone.
 */
class QueueLeftoversTest {
    private static final Instant T0 = Instant.parse("2026-01-02T03:04:05Z");
    private static final String Q = KeyParts.encode("queue");

    private S3Proxy proxy;
    private S3Client client;
    private S3Objects objects;
    private final KeyLayout layout = new KeyLayout("p");
    private S3Queues queues;

    @BeforeEach
    void start() throws Exception {
        proxy = S3Proxy.builder()
                .blobStore(new TransientNio2BlobStore())
                .endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.NONE, null, null)
                .build();
        proxy.start();
        while (!"STARTED".equals(proxy.getState())) {
            Thread.sleep(10);
        }
        client = S3Client.builder()
                .httpClientBuilder(Apache5HttpClient.builder())
                .endpointOverride(URI.create("http://127.0.0.1:" + proxy.getPort()))
                .forcePathStyle(true)
                .region(Region.US_EAST_1)
                .credentialsProvider(AnonymousCredentialsProvider.create())
                .build();
        client.createBucket(b -> b.bucket("queues"));
        objects = new S3Objects(client, "queues", "S3Proxy", true, 1 << 20);
        queues = new S3Queues(new QueueObjects(
                objects, layout, OverlappedRequests.inline(), Clock.systemUTC(), Duration.ofSeconds(1)));
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        proxy.stop();
    }

    private static QueueItem item(String id, long version, boolean finished) {
        return new QueueItem(id, version, T0, finished ? null : T0, finished, new byte[] {1});
    }

    @Test
    void aTombstoneWhoseDeletionStoppedIsTakenOverOnceOld() throws Exception {
        assertThat(queues.write("queue", item("run", 1, false))).isTrue();
        assertThat(queues.write("queue", item("run", 2, true))).isTrue();
        String key = layout.queueItemKey(Q, KeyParts.encode("run"));
        var stored = QueueFormat.decode(objects.get(key).orElseThrow().bytes());
        objects.put(key, QueueFormat.tombstone(stored), Map.of());

        assertThat(queues.deleteFinished("queue", 0))
                .as("young: another trim's")
                .isZero();
        assertThat(queues.write("queue", item("run", 1, false))).isFalse();
        Thread.sleep(2_100); // Last-Modified and Date have one-second resolution
        assertThat(queues.deleteFinished("queue", 0)).isEqualTo(1);
        assertThat(objects.get(key)).isEmpty();
        assertThat(objects.list(layout.queueFinishedFolder(Q))).isEmpty();
        assertThat(queues.write("queue", item("run", 1, false))).isTrue();
    }

    @Test
    void aFirstWritesMarkerWithoutItsItemIsDeletedByAClaimOnceOld() throws Exception {
        var marker = QueueMarker.of(item("ghost", 1, false), QueueFormat.random());
        String key = layout.queueMarkerKey(Q, marker);
        objects.put(key, new byte[0], Map.of());
        var later = new QueueMarker(marker.submittedAt(), marker.item(), marker.generation(), 2, marker.runnableAt());
        String laterKey = layout.queueMarkerKey(Q, later);
        objects.put(laterKey, new byte[0], Map.of());

        Instant now = T0.plusSeconds(1);
        assertThat(queues.claim("queue", now, now.plusSeconds(60), 1)).isEmpty();
        assertThat(objects.get(key)).as("young: its item may be on its way").isPresent();
        assertThat(objects.get(laterKey)).as("of a generation that is gone").isEmpty();
        assertThat(queues.runnable("queue", now, 1)).isEmpty();
        Thread.sleep(2_100);
        assertThat(queues.runnable("queue", now, 1)).isEmpty();
        assertThat(objects.get(key)).as("runnable reads only").isPresent();
        assertThat(queues.claim("queue", now, now.plusSeconds(60), 1)).isEmpty();
        assertThat(objects.get(key)).isEmpty();
    }
}
