package dev.agentpersistence.benchmarks.backend;

import java.net.URI;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * S3Proxy over an in-memory store on a free loopback port, serving the real S3 protocol (signature V4 checked). The
 * launcher runs it, so it lives outside the measured JVMs like the other servers.
 */
public final class S3Server implements AutoCloseable {
    private final S3Proxy proxy;
    private final URI endpoint;

    private S3Server(S3Proxy proxy, URI endpoint) {
        this.proxy = proxy;
        this.endpoint = endpoint;
    }

    /** Starts a server and waits until it serves. */
    public static S3Server start() throws Exception {
        S3Proxy proxy = S3Proxy.builder()
                .blobStore(new TransientNio2BlobStore())
                .endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(
                        AuthenticationType.AWS_V2_OR_V4, BenchSettings.S3_ACCESS_KEY, BenchSettings.S3_SECRET_KEY)
                .build();
        proxy.start();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                proxy.stop();
                throw new IllegalStateException("S3Proxy did not start: " + proxy.getState());
            }
            Thread.sleep(10);
        }
        return new S3Server(proxy, URI.create("http://127.0.0.1:" + proxy.getPort()));
    }

    public URI endpoint() {
        return endpoint;
    }

    /** Creates the run's bucket. */
    public void createBucket(BenchSettings settings) {
        try (S3Client client = S3Driver.client(settings)) {
            client.createBucket(b -> b.bucket(settings.bucket()));
        }
    }

    /**
     * Sends a few seconds of requests of every kind the benchmarks use, so that the server's code is compiled before
     * the first measurement rather than during it; removes what it wrote.
     */
    public void warmUp(BenchSettings settings) {
        try (S3Client client = S3Driver.client(settings)) {
            long deadline = System.nanoTime() + 5_000_000_000L;
            var keys = new java.util.ArrayList<software.amazon.awssdk.services.s3.model.ObjectIdentifier>();
            for (int i = 0; System.nanoTime() < deadline && i < 5_000; i++) {
                String key = "warmup/" + String.format("%06d", i);
                client.putObject(
                        b -> b.bucket(settings.bucket()).key(key),
                        software.amazon.awssdk.core.sync.RequestBody.fromBytes(new byte[2048]));
                client.getObjectAsBytes(b -> b.bucket(settings.bucket()).key(key));
                client.listObjectsV2(
                        b -> b.bucket(settings.bucket()).prefix("warmup/").maxKeys(1));
                keys.add(software.amazon.awssdk.services.s3.model.ObjectIdentifier.builder()
                        .key(key)
                        .build());
            }
            for (int i = 0; i < keys.size(); i += 1000) {
                var batch = keys.subList(i, Math.min(keys.size(), i + 1000));
                client.deleteObjects(b -> b.bucket(settings.bucket()).delete(d -> d.objects(batch)));
            }
        }
    }

    @Override
    public void close() {
        try {
            proxy.stop();
        } catch (Exception e) {
            throw new IllegalStateException("S3Proxy did not stop", e);
        }
    }
}
