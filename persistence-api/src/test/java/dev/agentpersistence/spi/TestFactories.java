package dev.agentpersistence.spi;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.internal.StorageChecks;
import java.util.List;
import java.util.Optional;

/** Factories that tests list in a services file on a throw-away class loader. */
final class TestFactories {
    private TestFactories() {}

    /** Remembers which factory made it and with which configuration. */
    record MadeProvider(String factory, ProviderConfig config) implements PersistenceStorageProvider<CheckpointFilter> {
        @Override
        public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
            return List.of();
        }

        @Override
        public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
            StorageChecks.requireSaveArguments(agentId, checkpoint);
        }

        @Override
        public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
            return Optional.empty();
        }
    }

    public static final class Alpha implements PersistenceStorageProviderFactory {
        @Override
        public String name() {
            return "alpha";
        }

        @Override
        public PersistenceStorageProvider<CheckpointFilter> create(ProviderConfig config) {
            return new MadeProvider(name(), config);
        }
    }

    public static final class Beta implements PersistenceStorageProviderFactory {
        @Override
        public String name() {
            return "beta";
        }

        @Override
        public PersistenceStorageProvider<CheckpointFilter> create(ProviderConfig config) {
            return new MadeProvider(name(), config);
        }
    }

    /** Declares two settings of its own. */
    public static final class Gamma implements PersistenceStorageProviderFactory {
        static final dev.agentpersistence.settings.Setting<String> URL =
                dev.agentpersistence.settings.Setting.text("agent.persistence.gamma.url", "g://local", "The URL.");
        static final dev.agentpersistence.settings.Setting<Integer> POOL_SIZE =
                dev.agentpersistence.settings.Setting.integer("agent.persistence.gamma.pool-size", 4, 1, 64, "Pool.");

        @Override
        public String name() {
            return "gamma";
        }

        @Override
        public List<dev.agentpersistence.settings.Setting<?>> settings() {
            return List.of(URL, POOL_SIZE);
        }

        @Override
        public PersistenceStorageProvider<CheckpointFilter> create(ProviderConfig config) {
            return new MadeProvider(name(), config);
        }
    }

    /** Declares a setting, but fails the test if anyone asks for its declarations. */
    public static final class DeclarationsNotToBeRead implements PersistenceStorageProviderFactory {
        @Override
        public String name() {
            return "unread";
        }

        @Override
        public List<dev.agentpersistence.settings.Setting<?>> settings() {
            throw new AssertionError("the declarations of a factory not chosen were read");
        }

        @Override
        public PersistenceStorageProvider<CheckpointFilter> create(ProviderConfig config) {
            return new MadeProvider(name(), config);
        }
    }

    /** Cannot even be instantiated. */
    public static final class ThrowsInConstructor implements PersistenceStorageProviderFactory {
        public ThrowsInConstructor() {
            throw new IllegalStateException("native library missing");
        }

        @Override
        public String name() {
            return "broken";
        }

        @Override
        public PersistenceStorageProvider<CheckpointFilter> create(ProviderConfig config) {
            throw new AssertionError("unreachable");
        }
    }

    /** Listed as a factory but is not one. */
    public static final class NotAFactory {}

    /** Loads, but cannot create its provider. */
    public static final class FailsToCreate implements PersistenceStorageProviderFactory {
        @Override
        public String name() {
            return "failing";
        }

        @Override
        public PersistenceStorageProvider<CheckpointFilter> create(ProviderConfig config) {
            throw new IllegalArgumentException("bad url");
        }
    }

    /** Returns nothing. */
    public static final class ReturnsNull implements PersistenceStorageProviderFactory {
        @Override
        public String name() {
            return "null";
        }

        @Override
        public PersistenceStorageProvider<CheckpointFilter> create(ProviderConfig config) {
            return null;
        }
    }
}
