package dev.agentpersistence.examples.jsonl;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.ProviderConfig;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Makes {@link JsonLinesStorageProvider} discoverable: listed in
 * {@code META-INF/services/dev.agentpersistence.spi.PersistenceStorageProviderFactory} and selected
 * with {@code agent.persistence.provider=jsonl}. Settings: {@value #FILE} (default
 * {@code agent-checkpoints.jsonl}) and {@value #FSYNC} (default {@code true}).
 */
public final class JsonLinesStorageProviderFactory implements PersistenceStorageProviderFactory {
    /** The provider name. */
    public static final String NAME = "jsonl";
    /** The key of the file. */
    public static final String FILE = "agent.persistence.jsonl.file";
    /** The key of the fsync switch. */
    public static final String FSYNC = "agent.persistence.jsonl.fsync";

    /** Used by {@link java.util.ServiceLoader}. */
    public JsonLinesStorageProviderFactory() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public PersistenceStorageProvider<CheckpointFilter> create(ProviderConfig config) {
        Objects.requireNonNull(config, "config");
        return JsonLinesStorageProvider.create(JsonLinesStorageConfig.custom()
                .file(Path.of(config.get(FILE, JsonLinesStorageConfig.DEFAULT_FILE.toString())))
                .fsync(config.getBoolean(FSYNC, true))
                .build());
    }
}
