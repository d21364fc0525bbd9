package dev.agentpersistence.spring.boot.autoconfigure;

import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.backend.StoredForm;
import java.util.Locale;

/** What the health indicator and the info contributor say of a provider bean. */
final class StorageProviderBeans {
    private StorageProviderBeans() {}

    /** The provider's observation name ({@code jdbc}, {@code file}, ...), or its class name in lower case. */
    static String name(PersistenceStorageProvider<?> provider) {
        return provider.storedForm()
                .map(StoredForm::providerName)
                .orElseGet(() -> provider.getClass().getSimpleName().toLowerCase(Locale.ROOT));
    }
}
