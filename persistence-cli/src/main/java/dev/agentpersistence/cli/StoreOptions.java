package dev.agentpersistence.cli;

import dev.agentpersistence.cli.internal.Store;
import dev.agentpersistence.spi.ProviderConfig;
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

    /** Opens the store named by {@code --store}. */
    public Store open() {
        if (uri == null || uri.isBlank()) {
            throw CliException.usage("no store given: pass --store URI or set AGENT_PERSISTENCE_STORE");
        }
        return Store.open(uri, settings(settings));
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
