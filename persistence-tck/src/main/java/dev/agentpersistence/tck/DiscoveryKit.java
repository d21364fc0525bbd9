package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.codec.CodecSettings;
import dev.agentpersistence.history.IncrementalHistoryConfig;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Checks that a provider module is discoverable: its factory is registered for {@link java.util.ServiceLoader}, found
 * under its name, and creates a working provider.
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

    /** The class (or a supertype) of the provider the factory creates. */
    protected abstract Class<?> expectedProviderType();

    /**
     * Whether two providers loaded with the same settings share their storage; {@code false} for providers that keep
     * checkpoints inside the instance, which aborts the cross-instance check with that reason.
     */
    protected boolean sharesStorageAcrossInstances() {
        return true;
    }

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
        assertThat(providerName())
                .as("factory names are lower case without spaces")
                .isEqualTo(providerName().toLowerCase(Locale.ROOT))
                .doesNotContainAnyWhitespaces();
    }

    @Test
    @DisplayName("load(name, config) creates the expected provider type")
    void loadByName() throws Exception {
        var provider = track(PersistenceStorageProviders.load(providerName(), config()));
        assertThat(provider).isInstanceOf(expectedProviderType());
    }

    @Test
    @DisplayName("load(config) with agent.persistence.provider set to the name creates the expected provider type")
    void loadByConfig() throws Exception {
        var provider = track(PersistenceStorageProviders.load(config().with(ProviderConfig.PROVIDER, providerName())));
        assertThat(provider).isInstanceOf(expectedProviderType());
    }

    @Test
    @DisplayName(
            "agent.persistence.history.incremental chooses what a storage-shell provider writes, never what it reads")
    void incrementalHistoryIsAWriteSetting() throws Exception {
        var plain = track(PersistenceStorageProviders.load(
                providerName(), config().with(IncrementalHistoryConfig.ENABLED.key(), "false")));
        var enabled = track(PersistenceStorageProviders.load(
                providerName(), config().with(IncrementalHistoryConfig.ENABLED.key(), "true")));
        assertThat(plain).isInstanceOf(expectedProviderType());
        assertThat(enabled).isInstanceOf(expectedProviderType());
        plain.storedForm()
                .ifPresent(
                        form -> assertThat(form.writes().incrementalHistory()).isFalse());
        enabled.storedForm()
                .ifPresent(
                        form -> assertThat(form.writes().incrementalHistory()).isTrue());
    }

    @Test
    @DisplayName("providers loaded with different write settings read each other's checkpoints completely")
    void everyLoadedProviderReadsEveryForm() throws Exception {
        Assumptions.assumeTrue(
                sharesStorageAcrossInstances(),
                "instances of " + expectedProviderType().getName() + " do not share storage");
        ProviderConfig base = config();
        var plain = track(PersistenceStorageProviders.load(
                providerName(),
                base.with(IncrementalHistoryConfig.ENABLED.key(), "false")
                        .with(CodecSettings.COMPRESSION.key(), "none")
                        .with(CodecSettings.CHECKSUM.key(), "false")));
        var layered = track(PersistenceStorageProviders.load(
                providerName(),
                base.with(IncrementalHistoryConfig.ENABLED.key(), "true")
                        .with(IncrementalHistoryConfig.BLOCK_SIZE.key(), "8")
                        .with(CodecSettings.COMPRESSION_MIN_SIZE.key(), "0")));
        String fromPlain = "discovery-plain-" + KitSession.randomId(10);
        String fromLayered = "discovery-layered-" + KitSession.randomId(10);
        var first = Checkpoints.builder(fromPlain, 0)
                .messageHistory(Checkpoints.history(600))
                .build();
        var second = Checkpoints.builder(fromLayered, 0)
                .messageHistory(Checkpoints.history(600))
                .build();
        plain.saveCheckpoint(fromPlain, first);
        layered.saveCheckpoint(fromLayered, second);
        var readByLayered = layered.getLatestCheckpoint(fromPlain);
        var readByPlain = plain.getLatestCheckpoint(fromLayered);
        assertThat(readByLayered)
                .as("a plain checkpoint read by a provider writing layers")
                .isPresent();
        assertThat(readByPlain)
                .as("a layered, incremental checkpoint read by a provider writing plain JSON")
                .isPresent();
        assertThat(readByPlain.get().messageHistory()).as("messages read back").hasSize(600);
        assertThat(readByLayered.get().equals(first)).as("read back equal").isTrue();
        assertThat(readByPlain.get().equals(second)).as("read back equal").isTrue();
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
