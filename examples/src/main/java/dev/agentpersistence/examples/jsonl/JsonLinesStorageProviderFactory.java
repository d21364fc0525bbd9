package dev.agentpersistence.examples.jsonl;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import dev.agentpersistence.storage.StorageShell;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Makes {@link JsonLinesStorageBackend} discoverable under the storage shell: listed in
 * {@code META-INF/services/dev.agentpersistence.spi.PersistenceStorageProviderFactory} and selected with
 * {@code agent.persistence.provider=jsonl}.
 */
public final class JsonLinesStorageProviderFactory implements PersistenceStorageProviderFactory {
    /** The provider name. */
    public static final String NAME = "jsonl";

    private static final String SCHEME = "jsonl:";
    /** The directory holding one file per agent. */
    public static final Setting<String> DIRECTORY = Setting.text(
            "agent.persistence.jsonl.dir",
            "agent-checkpoints-jsonl",
            "Directory of the example JSON Lines backend: one file per agent.");

    @Override
    public String name() {
        return NAME;
    }

    /** A storage shell over the directory, writing with the settings every provider shares. */
    @Override
    public PersistenceStorageProvider<CheckpointFilter> create(ProviderConfig config) {
        Path directory = Path.of(DIRECTORY.read(config));
        return StorageShell.builder(context -> new JsonLinesStorageBackend(directory, context.maxCheckpointSize()))
                .config(config)
                .build();
    }

    /** {@code jsonl:<directory>}. */
    @Override
    public Optional<StorageUri> parseUri(String uri, ProviderConfig base) {
        if (!StorageUri.hasScheme(uri, SCHEME)) {
            return Optional.empty();
        }
        Path directory = StorageUri.directory(uri, SCHEME);
        return Optional.of(
                StorageUri.select(NAME, base.with(DIRECTORY.key(), directory.toString()), SCHEME + directory));
    }

    @Override
    public List<String> uriForms() {
        return List.of("jsonl:<dir>");
    }

    @Override
    public List<Setting<?>> settings() {
        return List.of(DIRECTORY);
    }
}
