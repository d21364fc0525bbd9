package dev.agentpersistence.reliability;

import java.net.URI;
import java.nio.file.Path;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * S3Proxy serving the S3 protocol (signatures checked) on a loopback port over a directory
 * ({@code FilesystemNio2BlobStore}): the objects outlive the process, so a crashed server can be started again over the
 * same directory, in this JVM or in a child one.
 */
final class LocalS3 implements AutoCloseable {
    static final String ACCESS_KEY = "reliability-access";
    static final String SECRET_KEY = "reliability-secret-key";
    static final String BUCKET = "checkpoints";

    private final S3Proxy proxy;
    private final URI endpoint;

    private LocalS3(S3Proxy proxy, URI endpoint) {
        this.proxy = proxy;
        this.endpoint = endpoint;
    }

    /** Starts S3Proxy over {@code dir} on {@code port} (0: any free port) and makes sure the bucket exists. */
    static LocalS3 start(Path dir, int port) throws Exception {
        java.nio.file.Files.createDirectories(dir);
        S3Proxy proxy = S3Proxy.builder()
                .blobStore(new FilesystemNio2BlobStore(dir.toAbsolutePath().toString()))
                .endpoint(URI.create("http://127.0.0.1:" + port))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                .build();
        proxy.start();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                proxy.stop();
                throw new IllegalStateException("S3Proxy did not start: " + proxy.getState());
            }
            Thread.sleep(5);
        }
        var s3 = new LocalS3(proxy, URI.create("http://127.0.0.1:" + proxy.getPort()));
        if (!java.nio.file.Files.isDirectory(dir.resolve(BUCKET))) {
            try (S3Client client = s3.client()) {
                client.createBucket(b -> b.bucket(BUCKET));
            }
        }
        return s3;
    }

    URI endpoint() {
        return endpoint;
    }

    int port() {
        return proxy.getPort();
    }

    /** Provider settings for the bucket of this server. */
    static java.util.Map<String, String> settings(URI endpoint) {
        return java.util.Map.of(
                "agent.persistence.s3.bucket",
                BUCKET,
                "agent.persistence.s3.endpoint",
                endpoint.toString(),
                "agent.persistence.s3.region",
                "us-east-1",
                "agent.persistence.s3.access-key-id",
                ACCESS_KEY,
                "agent.persistence.s3.secret-access-key",
                SECRET_KEY,
                "agent.persistence.s3.connect-timeout",
                "2s",
                "agent.persistence.s3.read-timeout",
                "10s");
    }

    /** A raw client, for inspecting and tampering with objects. */
    S3Client client() {
        return S3Client.builder()
                .httpClientBuilder(Apache5HttpClient.builder())
                .endpointOverride(endpoint)
                .forcePathStyle(true)
                .region(Region.US_EAST_1)
                .credentialsProvider(
                        StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                .build();
    }

    @Override
    public void close() throws Exception {
        proxy.stop();
    }
}
