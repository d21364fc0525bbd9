package dev.agentpersistence.examples.jsonl;

import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.spi.DeclaredStorageProviderFactory;
import dev.agentpersistence.spi.UriForm;
import dev.agentpersistence.storage.StorageShell;
import java.nio.file.Path;
import java.util.List;

/**
 * Makes {@link JsonLinesStorageBackend} discoverable under the storage shell: listed in
 * {@code META-INF/services/dev.agentpersistence.spi.PersistenceStorageProviderFactory} and selected with
 * {@code agent.persistence.provider=jsonl} or the URI {@code jsonl:<directory>}. Each provider is a storage shell over
 * the directory, writing with the settings every provider shares.
 */
public final class JsonLinesStorageProviderFactory extends DeclaredStorageProviderFactory {
    /** The provider name. */
    public static final String NAME = "jsonl";
    /** The directory holding one file per agent. */
    public static final Setting<String> DIRECTORY = Setting.text(
            "agent.persistence.jsonl.dir",
            "agent-checkpoints-jsonl",
            "Directory of the example JSON Lines backend: one file per agent.");

    /** Used by {@link java.util.ServiceLoader}. */
    public JsonLinesStorageProviderFactory() {
        super(
                NAME,
                List.of(DIRECTORY),
                config -> {
                    Path directory = Path.of(DIRECTORY.read(config));
                    return StorageShell.builder(
                                    context -> new JsonLinesStorageBackend(directory, context.maxCheckpointSize()))
                            .config(config)
                            .build();
                },
                UriForm.directory("jsonl:", DIRECTORY));
    }
}
