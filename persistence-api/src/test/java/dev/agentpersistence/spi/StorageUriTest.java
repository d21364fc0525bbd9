package dev.agentpersistence.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The URI forms come from the factories: the first that reads a URI decides; none is built in. */
class StorageUriTest {
    private static final ProviderConfig NONE = ProviderConfig.empty();

    /** A factory opening {@code <name>:<dir>} directories. */
    private record DirectoryFactory(String name) implements PersistenceStorageProviderFactory {
        @Override
        public PersistenceStorageProvider<CheckpointFilter> create(ProviderConfig config) {
            throw new UnsupportedOperationException("not opened in these tests");
        }

        @Override
        public Optional<StorageUri> parseUri(String uri, ProviderConfig base) {
            String scheme = name + ":";
            if (!StorageUri.hasScheme(uri, scheme)) {
                return Optional.empty();
            }
            Path dir = StorageUri.directory(uri, scheme);
            return Optional.of(StorageUri.select(
                    name, base.with("agent.persistence." + name + ".dir", dir.toString()), scheme + dir));
        }

        @Override
        public List<String> uriForms() {
            return List.of(name + ":<dir>");
        }
    }

    private static final List<PersistenceStorageProviderFactory> FACTORIES =
            List.of(new DirectoryFactory("alpha"), new DirectoryFactory("beta"));

    @Test
    void theFactoryWhoseSchemeMatchesSelectsItsProvider() {
        var alpha = StorageUri.parse("ALPHA:target/cp", NONE, FACTORIES);
        assertThat(alpha.provider()).isEqualTo("alpha");
        assertThat(alpha.config().get(ProviderConfig.PROVIDER)).contains("alpha");
        Path dir = Path.of(alpha.config().get("agent.persistence.alpha.dir").orElseThrow());
        assertThat(dir.isAbsolute()).isTrue();
        assertThat(dir.endsWith(Path.of("target", "cp"))).as("%s", dir).isTrue();
        assertThat(StorageUri.parse("beta:///tmp/cp", NONE, FACTORIES).config().get("agent.persistence.beta.dir"))
                .contains("/tmp/cp");
    }

    @Test
    void aBareNameSelectsThatProviderWithTheBaseSettings() {
        var base = ProviderConfig.of(Map.of("agent.persistence.redis.uri", "redis://elsewhere:6379"));
        var selection = StorageUri.parse("redis", base, FACTORIES);
        assertThat(selection.config().get(ProviderConfig.PROVIDER)).contains("redis");
        assertThat(selection.config().get("agent.persistence.redis.uri")).contains("redis://elsewhere:6379");
    }

    @Test
    void anUnknownFormIsAnsweredWithTheFormsOfTheFactories() {
        assertThatThrownBy(() -> StorageUri.parse("mongodb://app:s3cret@x", NONE, FACTORIES))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("alpha:<dir>, beta:<dir> or a provider name")
                .hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> StorageUri.parse("gamma:x", NONE, List.of()))
                .hasMessageEndingWith("use a provider name");
        assertThatThrownBy(() -> StorageUri.parse("alpha:", NONE, FACTORIES))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs a path");
    }
}
