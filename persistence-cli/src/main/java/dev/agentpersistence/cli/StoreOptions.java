package dev.agentpersistence.cli;

import dev.agentpersistence.cli.internal.Store;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageSettings;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The store a command works on and the settings it is read with: {@code --store URI} (or
 * {@code AGENT_PERSISTENCE_STORE}) and {@code --set key=value}, over {@code agent.persistence.*} system properties and
 * {@code AGENT_PERSISTENCE_*} environment variables, the keys every provider reads.
 */
public final class StoreOptions {
    @Option(
            names = {"-s", "--store"},
            paramLabel = "URI",
            defaultValue = "${env:AGENT_PERSISTENCE_STORE}",
            description = "The store, in a URI form of a provider module on the class path, e.g. jdbc:<url> or"
                    + " file:<dir> (an unknown form is answered with the list of forms; default: the"
                    + " AGENT_PERSISTENCE_STORE environment variable).")
    String uri;

    @Option(
            names = "--set",
            paramLabel = "KEY=VALUE",
            mapFallbackValue = "",
            description = "A setting read by the store, e.g. agent.persistence.encryption.keys=… (repeatable; "
                    + "agent.persistence.* system properties and AGENT_PERSISTENCE_* variables apply too).")
    Map<String, String> settings = new LinkedHashMap<>();

    /** Opens the store named by {@code --store} for reading only. */
    public Store open() {
        return open(false);
    }

    /**
     * Opens the store named by {@code --store}; unless {@code writes}, read-only ({@code agent.persistence.read-only}):
     * nothing is created or migrated, and a store that does not exist fails.
     */
    public Store open(boolean writes) {
        if (uri == null || uri.isBlank()) {
            throw CliException.usage("no store given: pass --store URI or set AGENT_PERSISTENCE_STORE");
        }
        ProviderConfig config = settings(settings);
        return Store.open(uri, writes ? config : readOnly(config));
    }

    /** {@code config} opening the store for reading only. */
    static ProviderConfig readOnly(ProviderConfig config) {
        return config.with(StorageSettings.READ_ONLY.key(), "true");
    }

    /** The environment's settings with {@code overrides} on top. */
    static ProviderConfig settings(Map<String, String> overrides) {
        ProviderConfig config = ProviderConfig.fromEnvironment();
        for (var entry : overrides.entrySet()) {
            config = config.with(entry.getKey(), entry.getValue());
        }
        return config;
    }
}
