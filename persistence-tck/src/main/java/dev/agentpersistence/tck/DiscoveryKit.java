package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.history.IncrementalHistoryConfig;
import dev.agentpersistence.history.IncrementalHistoryStorageProvider;
import dev.agentpersistence.spi.HistorySegmentStore;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Checks that a provider module is discoverable: its factory is registered for
 * {@link java.util.ServiceLoader}, found under its name, and creates a working provider.
 *
 * <pre>{@code
 * class MyDiscoveryTest extends DiscoveryKit {
 *     protected String providerName() { return "my"; }
 *     protected ProviderConfig config() { return ProviderConfig.of(Map.of("agent.persistence.my.dir", dir)); }
 *     protected Class<?> expectedProviderType() { return MyStorageProvider.class; }
 * }
 * }</pre>
 */
public abstract class DiscoveryKit {
    private final List<PersistenceStorageProvider<CheckpointFilter>> created = new ArrayList<>();

    /** The factory's {@link PersistenceStorageProviderFactory#name()}. */
    protected abstract String providerName();

    /** Settings that make a working provider in this test. */
    protected abstract ProviderConfig config() throws Exception;

    /**
     * The class (or a supertype) of the provider the factory creates; {@code load} may hand it out
     * wrapped in {@link IncrementalHistoryStorageProvider}, which the checks look through.
     */
    protected abstract Class<?> expectedProviderType();

    private PersistenceStorageProvider<CheckpointFilter> track(PersistenceStorageProvider<CheckpointFilter> provider) {
        created.add(provider);
        return provider;
    }

    @AfterEach
    final void closeCreatedProviders() {
        for (int i = created.size() - 1; i >= 0; i--) {
            created.get(i).close();
        }
        created.clear();
    }

    @Test
    @DisplayName("the factory is listed by PersistenceStorageProviders.available() under its name")
    void listed() {
        var names = new ArrayList<String>();
        for (PersistenceStorageProviderFactory factory : PersistenceStorageProviders.available()) {
            names.add(factory.name());
        }
        assertThat(names).contains(providerName());
        assertThat(providerName()).as("factory names are lower case without spaces")
                .isEqualTo(providerName().toLowerCase(Locale.ROOT)).doesNotContainAnyWhitespaces();
    }

    @Test
    @DisplayName("load(name, config) creates the expected provider type")
    void loadByName() throws Exception {
        var provider = track(PersistenceStorageProviders.load(providerName(), config()));
        assertThat(underneath(provider)).isInstanceOf(expectedProviderType());
    }

    @Test
    @DisplayName("load(config) with agent.persistence.provider set to the name creates the expected provider type")
    void loadByConfig() throws Exception {
        var provider = track(PersistenceStorageProviders.load(config().with(ProviderConfig.PROVIDER, providerName())));
        assertThat(underneath(provider)).isInstanceOf(expectedProviderType());
    }

    @Test
    @DisplayName("a provider with the HistorySegmentStore capability is loaded with incremental history when "
            + IncrementalHistoryConfig.ENABLED_KEY + " is true, or unset and the provider wants it by default")
    void incrementalHistoryByDefault() throws Exception {
        var plain = track(PersistenceStorageProviders.load(providerName(),
                config().with(IncrementalHistoryConfig.ENABLED_KEY, "false")));
        assertThat(plain).isInstanceOf(expectedProviderType());
        var loaded = track(PersistenceStorageProviders.load(providerName(), config()));
        var enabled = track(PersistenceStorageProviders.load(providerName(),
                config().with(IncrementalHistoryConfig.ENABLED_KEY, "true")));
        if (plain instanceof HistorySegmentStore store) {
            assertThat(enabled).isInstanceOf(IncrementalHistoryStorageProvider.class);
            if (store.incrementalByDefault()) {
                assertThat(loaded).isInstanceOf(IncrementalHistoryStorageProvider.class);
            } else {
                assertThat(loaded).isInstanceOf(expectedProviderType());
            }
        } else {
            assertThat(loaded).isInstanceOf(expectedProviderType());
            assertThat(enabled).isInstanceOf(expectedProviderType());
        }
    }

    /** The provider itself, looking through the incremental history layer that {@code load} adds. */
    private static PersistenceStorageProvider<CheckpointFilter> underneath(PersistenceStorageProvider<CheckpointFilter> provider) {
        return provider instanceof IncrementalHistoryStorageProvider incremental ? incremental.delegate() : provider;
    }

    @Test
    @DisplayName("the discovered provider saves and reads back a checkpoint")
    void discoveredProviderWorks() throws Exception {
        var provider = track(PersistenceStorageProviders.load(providerName(), config()));
        String agent = "discovery-" + KitSession.randomId(10);
        var checkpoint = Checkpoints.full(agent, 0);
        provider.saveCheckpoint(agent, checkpoint);
        assertThat(provider.getCheckpoints(agent)).containsExactly(checkpoint);
        assertThat(provider.getLatestCheckpoint(agent)).contains(checkpoint);
    }
}
