package dev.agentpersistence.examples.indexed;

import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.spi.DeclaredStorageProviderFactory;
import dev.agentpersistence.storage.StorageShell;
import java.util.List;

/** Makes {@link IndexedStorageBackend} discoverable as {@value #NAME}, opened with the shell's clock and size limit. */
public final class IndexedStorageProviderFactory extends DeclaredStorageProviderFactory {
    /** The provider name. */
    public static final String NAME = "indexed";
    /** The H2 database. */
    public static final Setting<String> URL = Setting.text(
            "agent.persistence.indexed.url",
            "jdbc:h2:file:./agent-checkpoints-indexed",
            "H2 database of the example indexed backend: one row per checkpoint and per history segment.");

    /** Used by {@link java.util.ServiceLoader}. */
    public IndexedStorageProviderFactory() {
        super(NAME, List.of(URL), config -> {
            String url = URL.read(config);
            return StorageShell.builder(
                            context -> new IndexedStorageBackend(url, context.clock(), context.maxCheckpointSize()))
                    .config(config)
                    .build();
        });
    }
}
