package dev.agentpersistence.examples.indexed;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageShell;
import java.util.List;

/** Makes {@link IndexedStorageBackend} discoverable as {@value #NAME}, opened with the shell's clock and size limit. */
public final class IndexedStorageProviderFactory implements PersistenceStorageProviderFactory {
    /** The provider name. */
    public static final String NAME = "indexed";
    /** The H2 database. */
    public static final Setting<String> URL = Setting.text(
            "agent.persistence.indexed.url",
            "jdbc:h2:file:./agent-checkpoints-indexed",
            "H2 database of the example indexed backend: one row per checkpoint and per history segment.");

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public PersistenceStorageProvider<CheckpointFilter> create(ProviderConfig config) {
        String url = URL.read(config);
        return StorageShell.builder(
                        context -> new IndexedStorageBackend(url, context.clock(), context.maxCheckpointSize()))
                .config(config)
                .build();
    }

    @Override
    public List<Setting<?>> settings() {
        return List.of(URL);
    }
}
