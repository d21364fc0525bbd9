package dev.agentpersistence.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import org.junit.jupiter.api.Test;

/** {@code s3://bucket[/prefix][?setting=value]} names this provider, declared by its factory. */
class S3StorageUriTest {
    private static final ProviderConfig NONE = ProviderConfig.empty();

    @Test
    void bucketPrefixAndQueryParametersBecomeSettings() {
        var s3 = StorageUri.parse(
                "s3://agent-bucket/runs/prod?endpoint=http%3A%2F%2F127.0.0.1%3A9000&path-style=true", NONE);
        assertThat(s3.provider()).isEqualTo("s3");
        assertThat(s3.config().get("agent.persistence.s3.bucket")).contains("agent-bucket");
        assertThat(s3.config().get("agent.persistence.s3.prefix")).contains("runs/prod");
        assertThat(s3.config().get("agent.persistence.s3.endpoint")).contains("http://127.0.0.1:9000");
        assertThat(s3.config().get("agent.persistence.s3.path-style")).contains("true");
        assertThat(s3.description()).isEqualTo("s3://agent-bucket/runs/prod");
        assertThat(StorageUri.parse("s3://b?endpoint=http://127.0.0.1:9000&region=us-east-1", NONE)
                        .config()
                        .get("agent.persistence.s3.endpoint"))
                .contains("http://127.0.0.1:9000");
    }

    @Test
    void aMissingBucketOrAnOptionWithoutValueIsRefused() {
        assertThatThrownBy(() -> StorageUri.parse("s3://", NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs s3://bucket");
        assertThatThrownBy(() -> StorageUri.parse("s3://b?novalue", NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not key=value");
    }
}
