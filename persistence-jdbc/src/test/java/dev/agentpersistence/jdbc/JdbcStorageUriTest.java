package dev.agentpersistence.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import org.junit.jupiter.api.Test;

/** {@code jdbc:<url>} names this provider, declared by its factory. */
class JdbcStorageUriTest {
    @Test
    void aJdbcUrlSelectsTheJdbcProviderAndItsDescriptionHidesPasswords() {
        var selection =
                StorageUri.parse("jdbc:postgresql://db:5432/agents?user=app&password=secret", ProviderConfig.empty());
        assertThat(selection.provider()).isEqualTo("jdbc");
        assertThat(selection.config().get(ProviderConfig.PROVIDER)).contains("jdbc");
        assertThat(selection.config().get("agent.persistence.jdbc.url"))
                .contains("jdbc:postgresql://db:5432/agents?user=app&password=secret");
        assertThat(selection.description()).doesNotContain("secret");

        var withCredentials = StorageUri.parse("JDBC:mariadb://app:secret@db:3306/agents", ProviderConfig.empty());
        assertThat(withCredentials.provider()).isEqualTo("jdbc");
        assertThat(withCredentials.toString()).doesNotContain("secret");
        assertThat(new JdbcStorageProviderFactory().uriForms()).containsExactly("jdbc:<url>");
    }
}
