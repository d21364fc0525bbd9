package dev.agentpersistence.s3;

import static dev.agentpersistence.tck.SecretAssertions.assertNowhere;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Credentials in an S3 endpoint or the secret access key appear in no {@code toString}, message or cause. */
class S3CredentialRedactionTest {
    private static final String SECRET = "S3CRET";

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://:abc@defS3CRET@127.0.0.1:1",
                "http://app:abc@S3CRET@127.0.0.1:1/",
                "http://app:abc S3CRET@127.0.0.1:1"
            })
    void anEndpointWithUserInfoIsRefusedWithoutShowingIt(String endpoint) {
        var settings = ProviderConfig.of(Map.of(
                ProviderConfig.PROVIDER,
                "s3",
                S3StorageConfig.BUCKET.key(),
                "checkpoints",
                S3StorageConfig.ENDPOINT.key(),
                endpoint));
        assertThat(settings.toString()).doesNotContain(SECRET).doesNotContain("abc");
        assertThatThrownBy(() -> PersistenceStorageProviders.load(settings))
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining(S3StorageConfig.ENDPOINT.key())
                .satisfies(e -> assertNowhere(e, SECRET, "abc"));
    }

    @Test
    void anUnreachableEndpointNeverShowsItsTokenOrTheSecretKey() {
        var config = S3StorageConfig.custom()
                .bucket("checkpoints")
                .endpoint(URI.create("http://127.0.0.1:1/?X-Amz-Security-Token=tok" + SECRET))
                .credentials("access", "key" + SECRET)
                .region("us-east-1")
                .connectTimeout(Duration.ofMillis(300))
                .readTimeout(Duration.ofMillis(300))
                .build();
        assertThat(config.toString()).doesNotContain(SECRET);
        try (var provider = S3Storage.builder(config).build()) {
            assertThat(provider.toString()).doesNotContain(SECRET);
            assertThatThrownBy(() -> provider.getLatestCheckpoint("agent"))
                    .isInstanceOf(StorageUnavailableException.class)
                    .hasMessageContaining("127.0.0.1:1")
                    .satisfies(e -> assertNowhere(e, SECRET));
        }
    }
}
