package dev.agentpersistence.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StorageUriTest {
    private static final ProviderConfig NONE = ProviderConfig.empty();

    @Test
    void jdbcUrlsSelectTheJdbcProviderAndHidePasswords() {
        var selection = StorageUri.parse("jdbc:postgresql://db:5432/agents?user=app&password=secret", NONE);
        assertThat(selection.provider()).isEqualTo("jdbc");
        assertThat(selection.config().get(ProviderConfig.PROVIDER)).contains("jdbc");
        assertThat(selection.config().get("agent.persistence.jdbc.url"))
                .contains("jdbc:postgresql://db:5432/agents?user=app&password=secret");

        var withCredentials = StorageUri.parse("jdbc:mariadb://app:secret@db:3306/agents", NONE);
        assertThat(withCredentials.description()).doesNotContain("secret");
        assertThat(withCredentials.toString()).doesNotContain("secret");
    }

    @Test
    void fileTakesAPath() {
        var file = StorageUri.parse("file:target/cp", NONE);
        assertThat(file.provider()).isEqualTo("file");
        Path dir = Path.of(file.config().get("agent.persistence.file.dir").orElseThrow());
        assertThat(dir.isAbsolute()).isTrue();
        assertThat(dir.endsWith(Path.of("target", "cp"))).as("%s", dir).isTrue();
        assertThat(StorageUri.parse("file:///tmp/cp", NONE).config().get("agent.persistence.file.dir"))
                .contains("/tmp/cp");
    }

    @Test
    void redisAndS3UrisSelectTheirProviders() {
        var redis = StorageUri.parse("redis://:pw@cache:6380/2", NONE);
        assertThat(redis.provider()).isEqualTo("redis");
        assertThat(redis.config().get("agent.persistence.redis.uri")).contains("redis://:pw@cache:6380/2");
        assertThat(redis.description()).doesNotContain("pw");

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
    void aBareNameSelectsThatProviderWithTheBaseSettings() {
        var base = ProviderConfig.of(Map.of("agent.persistence.redis.uri", "redis://elsewhere:6379"));
        var selection = StorageUri.parse("redis", base);
        assertThat(selection.config().get(ProviderConfig.PROVIDER)).contains("redis");
        assertThat(selection.config().get("agent.persistence.redis.uri")).contains("redis://elsewhere:6379");
    }

    @Test
    void rejectsWhatItCannotRead() {
        assertThatThrownBy(() -> StorageUri.parse("mongodb://x", NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("jdbc:<url>");
        assertThatThrownBy(() -> StorageUri.parse("jsonl:/tmp/x", NONE)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StorageUri.parse("s3://", NONE)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StorageUri.parse("file:", NONE)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StorageUri.parse("s3://b?novalue", NONE)).isInstanceOf(IllegalArgumentException.class);
    }
}
