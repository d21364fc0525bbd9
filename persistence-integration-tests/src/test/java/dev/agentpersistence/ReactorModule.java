package dev.agentpersistence;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One module of the build as its own files describe it: the directory the root POM names, the artifact its POM
 * declares, the root package of its main sources, and the provider factories it registers for discovery.
 *
 * @param directory the module's directory, as the root POM's {@code <modules>} names it
 * @param artifactId the artifact its POM declares
 * @param rootPackage the package enclosing every main source of the module; empty for a module without main code
 * @param providerFactories the classes its {@code META-INF/services/...PersistenceStorageProviderFactory} lists
 * @param published whether the module is deployed as a library (its POM does not skip the deployment)
 */
record ReactorModule(
        String directory,
        String artifactId,
        Optional<String> rootPackage,
        List<String> providerFactories,
        boolean published) {
    /** The directory prefix of the modules that adapt an agent framework to the API. */
    static final String INTEGRATION_PREFIX = "integration-";

    ReactorModule {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(artifactId, "artifactId");
        Objects.requireNonNull(rootPackage, "rootPackage");
        providerFactories = List.copyOf(providerFactories);
    }

    /** Whether the module has main code (and so classes the rules must see). */
    boolean hasMainCode() {
        return rootPackage.isPresent();
    }

    /** Whether the module registers a storage provider: it implements a backend under the storage shell. */
    boolean isBackend() {
        return !providerFactories.isEmpty();
    }

    /**
     * The packages of its registered provider factories: the backend code, held to the backend rules. For a storage
     * module this is its root package; for a module with one backend among other code, that backend's package.
     */
    List<String> providerPackages() {
        return providerFactories.stream()
                .map(factory -> factory.substring(0, factory.lastIndexOf('.')))
                .distinct()
                .toList();
    }

    /** Whether the module adapts an agent framework to the API ({@code integration-<framework>}). */
    boolean isIntegration() {
        return directory.startsWith(INTEGRATION_PREFIX);
    }

    /** Whether {@code packageName} is the module's root package or lies below it. */
    boolean encloses(String packageName) {
        return rootPackage
                .map(root -> packageName.equals(root) || packageName.startsWith(root + "."))
                .orElse(false);
    }
}
