package dev.agentpersistence.s3.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.tck.Checkpoints;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/** A claim whose save never wrote a body lapses after the lease, judged by the store's clock. */
class ClaimLeaseTest {

    @Test
    void anAbandonedClaimIsTakenOverOnceItsLeaseHasPassed() throws Exception {
        S3Proxy proxy = S3Proxy.builder()
                .blobStore(new TransientNio2BlobStore())
                .endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.NONE, null, null)
                .build();
        proxy.start();
        while (!"STARTED".equals(proxy.getState())) {
            Thread.sleep(10);
        }
        try (S3Client client = S3Client.builder()
                .httpClientBuilder(Apache5HttpClient.builder())
                .endpointOverride(URI.create("http://127.0.0.1:" + proxy.getPort()))
                .forcePathStyle(true)
                .region(Region.US_EAST_1)
                .credentialsProvider(AnonymousCredentialsProvider.create())
                .build()) {
            client.createBucket(b -> b.bucket("lease"));
            var objects = new S3Objects(client, "lease", "S3Proxy", true, 1 << 20);
            var layout = new KeyLayout("");
            var store = new CheckpointObjects(objects, layout, new BodyFormat(false), TestRecords.IDENTITY);
            String agent = KeyParts.encode("agent");
            objects.put(layout.markerKey(agent, KeyParts.encode("cp-1")), new IdMarker(1, "cp-1").toBytes(), Map.of());

            var elsewhere = TestRecords.stored(
                    Checkpoints.builder("agent", 2).checkpointId("cp-1").build());
            var patient = new CheckpointSaver(store, Clock.systemUTC(), Duration.ofHours(1));
            assertThatThrownBy(() -> patient.save(elsewhere)).isInstanceOf(CheckpointConflictException.class);

            Thread.sleep(2_100); // Last-Modified and Date have one-second resolution
            assertThat(new CheckpointSaver(store, Clock.systemUTC(), Duration.ofSeconds(1))
                            .save(elsewhere)
                            .inserted())
                    .isTrue();
            assertThat(new CheckpointQueries(store).byId("agent", "cp-1"))
                    .map(found -> found.document())
                    .contains(elsewhere.document());
        } finally {
            proxy.stop();
        }
    }
}
