package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.tck.providers.MinimalProvider;
import dev.agentpersistence.tck.providers.ReferenceProvider;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Runs {@link DiscoveryKit} through the launcher: it passes a registered factory ({@code reference}, listed in this
 * module's test resources) and fails wrong names and types.
 */
class DiscoveryKitVerdictTest {

    static final class ReferenceDiscoveryKit extends DiscoveryKit {
        @Override
        protected String providerName() {
            return "reference";
        }

        @Override
        protected ProviderConfig config() {
            return ProviderConfig.empty();
        }

        @Override
        protected Class<?> expectedProviderType() {
            return ReferenceProvider.class;
        }

        @Override
        protected boolean sharesStorageAcrossInstances() {
            return false; // the reference factory makes a new store per provider
        }
    }

    static final class UnregisteredNameKit extends DiscoveryKit {
        @Override
        protected String providerName() {
            return "unregistered";
        }

        @Override
        protected ProviderConfig config() {
            return ProviderConfig.empty();
        }

        @Override
        protected Class<?> expectedProviderType() {
            return ReferenceProvider.class;
        }
    }

    static final class WrongTypeKit extends DiscoveryKit {
        @Override
        protected String providerName() {
            return "reference";
        }

        @Override
        protected ProviderConfig config() {
            return ProviderConfig.empty();
        }

        @Override
        protected Class<?> expectedProviderType() {
            return MinimalProvider.class;
        }

        @Override
        protected boolean sharesStorageAcrossInstances() {
            return false;
        }
    }

    @Test
    @DisplayName("the discovery kit passes a registered factory")
    void passesRegisteredFactory() {
        var run = KitRun.of(ReferenceDiscoveryKit.class);
        assertThat(run.failed()).as(run.summary()).isEmpty();
        assertThat(run.aborted()).containsOnlyKeys("ReferenceDiscoveryKit.everyLoadedProviderReadsEveryForm");
        assertThat(run.passed())
                .containsExactlyInAnyOrder(
                        "ReferenceDiscoveryKit.listed",
                        "ReferenceDiscoveryKit.loadByName",
                        "ReferenceDiscoveryKit.loadByConfig",
                        "ReferenceDiscoveryKit.discoveredProviderWorks",
                        "ReferenceDiscoveryKit.incrementalHistoryIsAWriteSetting");
    }

    @Test
    @DisplayName("the discovery kit fails a name no factory is registered under")
    void failsUnregisteredName() {
        var run = KitRun.of(UnregisteredNameKit.class);
        assertThat(run.passed()).isEmpty();
        assertThat(run.failed())
                .containsOnlyKeys(
                        "UnregisteredNameKit.listed",
                        "UnregisteredNameKit.loadByName",
                        "UnregisteredNameKit.loadByConfig",
                        "UnregisteredNameKit.discoveredProviderWorks",
                        "UnregisteredNameKit.incrementalHistoryIsAWriteSetting",
                        "UnregisteredNameKit.everyLoadedProviderReadsEveryForm");
    }

    @Test
    @DisplayName("the discovery kit fails a factory that creates another provider type")
    void failsWrongType() {
        var run = KitRun.of(WrongTypeKit.class);
        assertThat(run.failed())
                .containsOnlyKeys(
                        "WrongTypeKit.loadByName",
                        "WrongTypeKit.loadByConfig",
                        "WrongTypeKit.incrementalHistoryIsAWriteSetting");
        assertThat(run.passed()).contains("WrongTypeKit.listed", "WrongTypeKit.discoveredProviderWorks");
    }
}
