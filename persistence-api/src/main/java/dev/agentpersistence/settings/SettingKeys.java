package dev.agentpersistence.settings;

import java.util.Locale;

/** How setting keys are spelled: the prefix every key starts with, and the environment variable of a key. */
public final class SettingKeys {
    /** Prefix of every key this library reads. */
    public static final String PREFIX = "agent.persistence.";

    private SettingKeys() {}

    /**
     * The environment variable that sets {@code key}: {@code agent.persistence.jdbc.url} →
     * {@code AGENT_PERSISTENCE_JDBC_URL}.
     */
    public static String environmentName(String key) {
        return key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }
}
