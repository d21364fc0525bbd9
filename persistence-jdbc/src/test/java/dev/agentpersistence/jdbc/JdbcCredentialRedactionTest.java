package dev.agentpersistence.jdbc;

import static dev.agentpersistence.tck.SecretAssertions.assertNowhere;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Credentials in a JDBC URL (any credential parameter, user info with an unencoded {@code @}) appear in no
 * {@code toString}, exception message or cause when the database cannot be reached (port 1 on the loopback: nothing
 * listens there).
 */
class JdbcCredentialRedactionTest {
    private static final String SECRET = "S3CRET";

    @ParameterizedTest
    @ValueSource(
            strings = {
                "jdbc:postgresql://127.0.0.1:1/x?sslpassword=S3CRET&user=u",
                "jdbc:postgresql://127.0.0.1:1/x?user=u&password=S3CRET&sslkey=/tmp/k.pk8",
                "jdbc:postgresql://u:abc@defS3CRET@127.0.0.1:1/x",
                "jdbc:mariadb://app:abc@defS3CRET@127.0.0.1:1/x",
                "jdbc:mariadb://127.0.0.1:1/x?user=app&trustStorePassword=S3CRET&keyStorePassword=S3CRET"
            })
    void anUnreachableDatabaseNeverShowsTheCredentials(String url) {
        var config = JdbcStorageConfig.custom()
                .url(url)
                .connectionTimeout(Duration.ofMillis(500))
                .build();
        assertThat(config.toString()).doesNotContain(SECRET).doesNotContain("abc");
        try (var provider = JdbcStorage.builder(config).build()) {
            assertThat(provider.toString()).doesNotContain(SECRET).doesNotContain("abc");
            assertThatThrownBy(() -> provider.getLatestCheckpoint("agent"))
                    .isInstanceOf(StorageUnavailableException.class)
                    .hasMessageContaining("127.0.0.1")
                    .satisfies(e -> assertNowhere(e, SECRET, "abc@"));
        }
        var settings = ProviderConfig.of(Map.of(
                ProviderConfig.PROVIDER,
                "jdbc",
                JdbcStorageConfig.URL.key(),
                url,
                JdbcStorageConfig.CONNECTION_TIMEOUT.key(),
                "500ms"));
        assertThat(settings.toString()).doesNotContain(SECRET);
        try (var loaded = PersistenceStorageProviders.load(settings)) {
            assertThat(loaded.toString()).doesNotContain(SECRET);
            assertThatThrownBy(() -> loaded.getCheckpoints("agent"))
                    .isInstanceOf(PersistenceException.class)
                    .satisfies(e -> assertNowhere(e, SECRET, "abc@"));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdbc:oracle://db/x?sslpassword=S3CRET", "postgresql://u:abc@defS3CRET@db/x"})
    void aRefusedUrlNeverShowsTheCredentials(String url) {
        assertThatThrownBy(() -> JdbcStorage.builder(
                                JdbcStorageConfig.custom().url(url).build())
                        .build())
                .satisfies(e -> assertNowhere(e, SECRET, "abc@"));
        assertThatThrownBy(() -> JdbcStorage.builder(
                                JdbcStorageConfig.from(ProviderConfig.of(Map.of(JdbcStorageConfig.URL.key(), url))))
                        .build())
                .satisfies(e -> assertNowhere(e, SECRET, "abc@"));
    }
}
