package dev.agentpersistence.spring.boot.autoconfigure;

import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.backend.StoredForm;
import dev.agentpersistence.backend.WrittenForm;
import dev.agentpersistence.spi.ProviderConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
        var details = new LinkedHashMap<String, Object>();
        details.put("provider", StorageProviderBeans.name(provider));
        details.put("providerClass", provider.getClass().getName());
        Optional<StoredForm> form = provider.storedForm();
        if (form.isPresent()) {
            details.put("store", ProviderConfig.redact(form.get().description()));
            WrittenForm writes = form.get().writes();
            details.put(
                    "layers",
                    Map.of(
                            "compression",
                            writes.compression(),
                            "checksum",
                            writes.checksum(),
                            "encryption",
                            writes.encryption()));
            details.put("incrementalHistory", writes.incrementalHistory());
        }
        return details;
    }
}
