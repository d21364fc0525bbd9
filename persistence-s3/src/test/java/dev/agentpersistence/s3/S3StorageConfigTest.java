package dev.agentpersistence.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.spi.ProviderConfig;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Settings: validation of the builder and reading them from {@link ProviderConfig}. */
class S3StorageConfigTest {

    @Test
    void defaultsNeedOnlyABucket() {
        var config = S3StorageConfig.ofDefaults("checkpoints");
        assertThat(config.bucket()).isEqualTo("checkpoints");
        assertThat(config.prefix()).isEmpty();
        assertThat(config.region()).isEmpty();
        assertThat(config.endpoint()).isEmpty();
        assertThat(config.pathStyle()).isFalse();
        assertThat(config.accessKeyId()).isEmpty();
        assertThat(config.gzip()).isFalse();
        assertThat(config.conditionalWrites()).isTrue();
        assertThat(config.connectTimeout())
                .isEqualTo(S3StorageConfig.CONNECT_TIMEOUT.defaultValue().orElseThrow());
        assertThat(config.location()).isEqualTo("s3://checkpoints/");
        assertThatThrownBy(() -> S3StorageConfig.custom().build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("bucket");
    }

    @Test
    void builderChecksEveryArgument() {
        var builder = S3StorageConfig.custom();
        assertThatThrownBy(() -> builder.bucket("Bad Bucket")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.bucket(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> builder.prefix("a//b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.prefix("a\nb")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.endpoint(URI.create("ftp://host")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.region(" ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.credentials("id", "")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.connectTimeout(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.readTimeout(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void prefixSlashesAreTrimmedAndAnEndpointTurnsOnPathStyle() {
        var config = S3StorageConfig.custom()
                .bucket("bkt")
                .prefix("/agents/prod/")
                .endpoint(URI.create("http://127.0.0.1:9000"))
                .build();
        assertThat(config.prefix()).isEqualTo("agents/prod");
        assertThat(config.location()).isEqualTo("s3://bkt/agents/prod/");
        assertThat(config.pathStyle()).isTrue();
        assertThat(config.toBuilder().pathStyle(false).build().pathStyle()).isFalse();
    }

    @Test
    void toStringHidesTheSecret() {
        var config = S3StorageConfig.custom()
                .bucket("bkt")
                .credentials("AKIDEXAMPLE", "very-secret")
                .build();
        assertThat(config.toString()).contains("AKIDEXAMPLE").doesNotContain("very-secret");
    }

    @Test
    void everySettingIsRead() {
        var config = S3StorageConfig.from(ProviderConfig.of(Map.ofEntries(
                Map.entry("agent.persistence.s3.bucket", "checkpoints"),
                Map.entry("agent.persistence.s3.prefix", "prod"),
                Map.entry("agent.persistence.s3.region", "eu-central-1"),
                Map.entry("agent.persistence.s3.endpoint", "http://127.0.0.1:9000"),
                Map.entry("agent.persistence.s3.path-style", "false"),
                Map.entry("AGENT_PERSISTENCE_S3_ACCESS_KEY_ID", "id"),
                Map.entry("AGENT_PERSISTENCE_S3_SECRET_ACCESS_KEY", "secret"),
                Map.entry("agent.persistence.s3.gzip", "true"),
                Map.entry("agent.persistence.s3.conditional-writes", "false"),
                Map.entry("agent.persistence.s3.connect-timeout", "2s"),
                Map.entry("agent.persistence.s3.read-timeout", "PT90S"))));
        assertThat(config.bucket()).isEqualTo("checkpoints");
        assertThat(config.prefix()).isEqualTo("prod");
        assertThat(config.region()).contains("eu-central-1");
        assertThat(config.endpoint()).contains(URI.create("http://127.0.0.1:9000"));
        assertThat(config.pathStyle()).isFalse();
        assertThat(config.accessKeyId()).contains("id");
        assertThat(config.secretAccessKey()).contains("secret");
        assertThat(config.gzip()).isTrue();
        assertThat(config.conditionalWrites()).isFalse();
        assertThat(config.connectTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.readTimeout()).isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void aMissingBucketNamesTheSettingAndItsEnvironmentVariable() {
        assertThatThrownBy(() -> new S3StorageProviderFactory().create(ProviderConfig.empty()))
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("agent.persistence.s3.bucket")
                .hasMessageContaining("AGENT_PERSISTENCE_S3_BUCKET");
    }

    @Test
    void invalidSettingsNameTheirKey() {
        var base = ProviderConfig.of(Map.of("agent.persistence.s3.bucket", "checkpoints"));
        assertThatThrownBy(() -> S3StorageConfig.from(base.with("agent.persistence.s3.endpoint", "not a uri")))
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("agent.persistence.s3.endpoint")
                .hasMessageContaining("AGENT_PERSISTENCE_S3_ENDPOINT");
        assertThatThrownBy(() -> S3StorageConfig.from(base.with("agent.persistence.s3.access-key-id", "id")))
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("agent.persistence.s3.secret-access-key");
        assertThatThrownBy(() -> S3StorageConfig.from(base.with("agent.persistence.s3.gzip", "maybe")))
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("agent.persistence.s3.gzip");
        assertThatThrownBy(() ->
                        S3StorageConfig.from(ProviderConfig.of(Map.of("agent.persistence.s3.bucket", "Not_Valid!"))))
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("agent.persistence.s3.bucket");
    }
}
