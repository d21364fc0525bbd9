package dev.agentpersistence.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.tck.StorageProviderCompatibilityKit;
import dev.agentpersistence.tck.TestServices;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.MinIOContainer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The conformance kit against MinIO, a second real S3 implementation. The server is the one named by
 * {@value #MINIO_URL} ({@code http://user:password@host:port}; it must answer, and a missing one fails when services
 * are required), else a Testcontainers MinIO when Docker works. Without either the class is skipped with that reason
 * even when services are required: MinIO is an extra check, and the S3 protocol is covered on every machine by the
 * in-process S3Proxy tests.
 */
class MinioStorageProviderCompatibilityTest extends StorageProviderCompatibilityKit {
    static final String MINIO_URL = "AGENT_PERSISTENCE_TEST_MINIO_URL";
    static final String MINIO_IMAGE = "AGENT_PERSISTENCE_TEST_MINIO_IMAGE";
    private static final String DEFAULT_IMAGE = "minio/minio:RELEASE.2025-04-22T22-12-26Z";

    private static MinIOContainer container;
    private static URI endpoint;
    private static String user;
    private static String password;
    private static S3Client admin;
    private static String skipReason;
    private static final AtomicInteger BUCKETS = new AtomicInteger();
    private String bucket;

    /** Finds MinIO once for the class; without it every test is skipped with the reason (see the class comment). */
    @BeforeAll
    static void locateMinio() {
        String explicit = System.getenv(MINIO_URL);
        if (explicit != null && !explicit.isBlank()) {
            URI uri = URI.create(explicit.strip());
            if (!answers(uri)) {
                TestServices.unavailable(
                        "MinIO", List.of(MINIO_URL + "=" + uri.getHost() + ":" + uri.getPort() + " did not answer"));
            }
            String[] credentials = uri.getUserInfo() == null
                    ? new String[] {"minioadmin", "minioadmin"}
                    : uri.getUserInfo().split(":", 2);
            user = credentials[0];
            password = credentials[1];
            endpoint = URI.create(uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort());
        } else if (dockerWorks()) {
            String image = System.getenv().getOrDefault(MINIO_IMAGE, DEFAULT_IMAGE);
            container = new MinIOContainer(image);
            container.start();
            endpoint = URI.create(container.getS3URL());
            user = container.getUserName();
            password = container.getPassword();
        } else {
            skipReason = "MinIO tests need Docker or " + MINIO_URL + " (neither is available); skipped even when"
                    + " services are required, as the in-process S3Proxy tests cover the S3 protocol on every machine";
            return;
        }
        admin = S3Client.builder()
                .httpClientBuilder(Apache5HttpClient.builder())
                .endpointOverride(endpoint)
                .forcePathStyle(true)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(user, password)))
                .build();
    }

    private static boolean dockerWorks() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    @AfterAll
    static void stopMinio() {
        if (admin != null) {
            admin.close();
        }
        if (container != null) {
            container.stop();
        }
    }

    /** Runs before every kit test, so a missing MinIO shows as one skipped test per contract, each with the reason. */
    @BeforeEach
    void freshBucket() {
        Assumptions.assumeTrue(skipReason == null, skipReason);
        bucket = "kit-" + ProcessHandle.current().pid() + "-" + System.currentTimeMillis() % 100_000 + "-"
                + BUCKETS.incrementAndGet();
        admin.createBucket(b -> b.bucket(bucket));
    }

    /**
     * MinIO rejects a second create of one key, which the save protocol relies on. A plain test of this class, so that
     * a missing MinIO also shows as a skip under this class's own name in reports.
     */
    @Test
    void minioHonoursIfNoneMatch() {
        admin.putObject(b -> b.bucket(bucket).key("probe").ifNoneMatch("*"), RequestBody.fromString("first"));
        assertThatThrownBy(() -> admin.putObject(
                        b -> b.bucket(bucket).key("probe").ifNoneMatch("*"), RequestBody.fromString("second")))
                .isInstanceOfSatisfying(
                        S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(412));
    }

    @Override
    protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
        return S3Storage.builder(S3StorageConfig.custom()
                        .bucket(bucket)
                        .endpoint(endpoint)
                        .credentials(user, password)
                        .prefix("checkpoints")
                        .build())
                .build();
    }

    private static boolean answers(URI uri) {
        try (var socket = new Socket()) {
            socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 2_000);
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
