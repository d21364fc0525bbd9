package dev.agentpersistence.spring.boot.autoconfigure;

import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.codec.DocumentLayers;
import dev.agentpersistence.metrics.MeteredStorageProvider;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.storage.StorageShell;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;

/**
 * Adds {@code agentPersistence} to {@code /actuator/info}: the provider's name and class, whether it is metered and,
 * for the built-in providers, which layers new checkpoints are written with (compression, checksum, encryption) and
 * whether histories are written incrementally. Never a setting's value.
 */
public final class AgentPersistenceInfoContributor implements InfoContributor {
    private final PersistenceStorageProvider<?> provider;

    /** Describes {@code provider}. */
    public AgentPersistenceInfoContributor(PersistenceStorageProvider<?> provider) {
        this.provider = Objects.requireNonNull(provider, "provider");
    }

    @Override
    public void contribute(Info.Builder builder) {
        builder.withDetail("agentPersistence", details());
    }

    /** The details shown. */
    Map<String, Object> details() {
        PersistenceStorageProvider<?> storage = StorageProviderBeans.unwrap(provider);
        var details = new LinkedHashMap<String, Object>();
        details.put("provider", MeteredStorageProvider.defaultProviderName(storage));
        details.put("providerClass", storage.getClass().getName());
        details.put("metered", provider instanceof MeteredStorageProvider);
        if (storage instanceof StorageShell shell) {
            StorageSettings settings = shell.settings();
            DocumentLayers layers = settings.layers();
            details.put(
                    "layers",
                    Map.of(
                            "compression",
                            layers.compresses(),
                            "checksum",
                            layers.checksum(),
                            "encryption",
                            layers.encrypts()));
            details.put("incrementalHistory", settings.incrementalHistory());
        }
        return details;
    }
}
