package dev.agentpersistence.settings;

import java.util.Optional;

/**
 * Where the values of {@link Setting}s are read from: string values by key, keys matched as the source defines (for
 * {@code ProviderConfig}: case, dots, dashes and underscores alike).
 */
@FunctionalInterface
public interface SettingSource {

    /** The value of {@code key}, if set. */
    Optional<String> get(String key);
}
