package dev.agentpersistence.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentpersistence.StorageConfigurationException;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.tck.Checkpoints;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A missing region, a missing bucket, wrong credentials and an unreachable endpoint give typed exceptions naming what
 * failed.
 */
class S3StorageErrorsTest {

    @Test
    void aMissingRegionNamesTheSettingInAShortMessage(@TempDir Path home) throws Exception {
        assumeTrue(System.getenv("AWS_REGION") == null, "AWS_REGION is set in the environment");
        Path emptyConfig = Files.createFile(home.resolve("config"));
        var saved = new Properties();
        for (String key :
                new String[] {"aws.region", "aws.configFile", "aws.sharedCredentialsFile", "aws.disableEc2Metadata"}) {
            saved.put(key, Objects.toString(System.getProperty(key), ""));
        }
        System.clearProperty("aws.region");
        System.setProperty("aws.configFile", emptyConfig.toString());
        System.setProperty("aws.sharedCredentialsFile", emptyConfig.toString());
        System.setProperty("aws.disableEc2Metadata", "true");
        try {
            var config = S3StorageConfig.custom()
                    .bucket("checkpoints")
                    .credentials("key", "secret")
                    .build();

            assertThatThrownBy(() -> S3Storage.builder(config).build())
                    .isInstanceOf(StorageConfigurationException.class)
                    .hasMessageContaining("s3://checkpoints/")
                    .hasMessageContaining("agent.persistence.s3.region")
                    .hasMessageContaining("AGENT_PERSISTENCE_S3_REGION")
                    .hasMessageContaining("AWS_REGION")
                    .hasMessageNotContaining("Unable to load region")
                    .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(250));
        } finally {
            saved.forEach((key, value) -> {
                if (value.toString().isEmpty()) {
                    System.clearProperty(key.toString());
                } else {
                    System.setProperty(key.toString(), value.toString());
                }
            });
        }
    }

    @Test
    void aMissingBucketIsReportedWithTheBucketAndTheSdkError() throws Exception {
        try (var server = S3ProxyServer.start();
                var provider = S3Storage.builder(server.config("no-such-bucket").build())
                        .build()) {
            assertThatThrownBy(() -> provider.saveCheckpoint("agent", Checkpoints.simple("agent", 0)))
                    .isInstanceOf(StorageUnavailableException.class)
                    .hasMessageContaining("s3://no-such-bucket/")
                    .hasMessageContaining("does not exist")
                    .hasMessageContaining(server.endpoint().toString())
                    .cause()
                    .isInstanceOf(S3Exception.class);
            assertThatThrownBy(provider::listAgents)
                    .isInstanceOf(StorageUnavailableException.class)
                    .hasMessageContaining("no-such-bucket");
            assertThatThrownBy(() -> provider.getLatestCheckpoint("agent"))
                    .isInstanceOf(StorageUnavailableException.class)
                    .hasMessageContaining("no-such-bucket");
        }
    }

    @Test
    void wrongCredentialsAreReportedAsRefusedAccess() throws Exception {
        try (var server = S3ProxyServer.start()) {
            String bucket = server.newBucket();
            try (var provider = S3Storage.builder(server.config(bucket)
                            .credentials(S3ProxyServer.ACCESS_KEY, "not-the-secret")
                            .build())
                    .build()) {
                assertThatThrownBy(() -> provider.saveCheckpoint("agent", Checkpoints.simple("agent", 0)))
                        .isInstanceOf(StorageUnavailableException.class)
                        .hasMessageContaining("refused access")
                        .hasMessageContaining("s3://" + bucket + "/")
                        .cause()
                        .isInstanceOf(S3Exception.class)
                        .satisfies(
                                e -> assertThat(((S3Exception) e).statusCode()).isEqualTo(403));
                assertThatThrownBy(() -> provider.getCheckpoints("agent"))
                        .isInstanceOf(StorageUnavailableException.class);
            }
        }
    }

    @Test
    void aClosedPortIsReportedAsUnreachableWithTheEndpoint() throws Exception {
        int port;
        try (var socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        URI endpoint = URI.create("http://127.0.0.1:" + port);
        try (var provider = S3Storage.builder(S3StorageConfig.custom()
                        .bucket("checkpoints")
                        .endpoint(endpoint)
                        .credentials("key", "secret")
                        .connectTimeout(Duration.ofSeconds(1))
                        .build())
                .build()) {
            assertThatThrownBy(() -> provider.getLatestCheckpoint("agent"))
                    .isInstanceOf(StorageUnavailableException.class)
                    .hasMessageContaining("Cannot reach S3")
                    .hasMessageContaining(endpoint.toString())
                    .hasMessageContaining("s3://checkpoints/")
                    .cause()
                    .isInstanceOf(SdkClientException.class);
        }
    }

    @Test
    void theSameProviderWorksAgainWhenTheStoreIsBack() throws Exception {
        var first = S3ProxyServer.start();
        String bucket = first.newBucket();
        int port = first.port();
        try (var provider = S3Storage.builder(first.config(bucket).build()).build()) {
            provider.saveCheckpoint("agent", Checkpoints.simple("agent", 0));
            first.close();
            assertThatThrownBy(() -> provider.saveCheckpoint("agent", Checkpoints.simple("agent", 1)))
                    .isInstanceOf(StorageUnavailableException.class);
            try (var second = S3ProxyServer.start(first.store(), port)) {
                assertThat(second.endpoint()).isEqualTo(first.endpoint());
                provider.saveCheckpoint("agent", Checkpoints.simple("agent", 1));
                assertThat(provider.getCheckpoints("agent"))
                        .containsExactly(Checkpoints.simple("agent", 0), Checkpoints.simple("agent", 1));
            }
        }
    }
}
