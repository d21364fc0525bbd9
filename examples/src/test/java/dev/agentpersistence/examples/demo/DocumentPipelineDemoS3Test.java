package dev.agentpersistence.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.examples.StorageSelection;
import dev.agentpersistence.spi.ProviderConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/** {@code --storage s3://…} against a real S3-protocol server (S3Proxy, in-process, signatures checked). */
class DocumentPipelineDemoS3Test {
    private static final String ACCESS_KEY = "examples-key";
    private static final String SECRET_KEY = "examples-secret";

    @TempDir
    Path directory;

    private S3Proxy proxy;
    private URI endpoint;

    @BeforeEach
    void startServer() throws Exception {
        proxy = S3Proxy.builder()
                .blobStore(new TransientNio2BlobStore())
                .endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                .build();
        proxy.start();
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!"STARTED".equals(proxy.getState()) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(proxy.getState()).isEqualTo("STARTED");
        endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
        try (S3Client admin = S3Client.builder()
                .httpClientBuilder(Apache5HttpClient.builder())
                .endpointOverride(endpoint)
                .forcePathStyle(true)
                .region(Region.US_EAST_1)
                .credentialsProvider(
                        StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                .build()) {
            admin.createBucket(b -> b.bucket("demo-bucket"));
        }
    }

    @AfterEach
    void stopServer() throws Exception {
        proxy.stop();
    }

    @Test
    void theDemoRunsOnS3WithSettingsInTheUri() {
        String spec = "s3://demo-bucket/runs?endpoint=" + URLEncoder.encode(endpoint.toString(), StandardCharsets.UTF_8)
                + "&path-style=true&region=us-east-1&access-key-id=" + ACCESS_KEY + "&secret-access-key=" + SECRET_KEY;
        var storage = StorageSelection.parse(spec, ProviderConfig.empty());
        var printed = new ByteArrayOutputStream();

        var outcome = DocumentPipelineDemo.run(
                storage,
                directory.resolve("workspace"),
                "doc-s3",
                new PrintStream(printed, true, StandardCharsets.UTF_8));

        assertThat(outcome.succeeded())
                .as(printed.toString(StandardCharsets.UTF_8))
                .isTrue();
        assertThat(outcome.history()).extracting(AgentCheckpoint::version).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
        assertThat(outcome.resumed().executedNodes()).containsExactly(DocumentPipeline.VISUALIZATION_WRITER);
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains("storage    s3 (s3://demo-bucket/runs)")
                .doesNotContain(SECRET_KEY);
    }
}
