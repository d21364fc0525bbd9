package dev.agentpersistence.backend;

/**
 * Opens a backend with the values the shell owns; what a backend module hands the shell's builder. Called once per
 * provider, by {@code StorageShell.Builder.build()}.
 */
@FunctionalInterface
public interface BackendOpener {

    /**
     * Opens the backend: connects, or prepares to connect on first use.
     *
     * @throws dev.agentpersistence.PersistenceException when the backend cannot be set up
     */
    StorageBackend open(BackendContext context);
}
