package dev.agentpersistence.spring.boot.autoconfigure;

import dev.agentpersistence.history.RetentionPolicy;
import dev.agentpersistence.settings.Setting;
import java.time.Duration;
import java.util.List;

/**
 * The settings only the Spring Boot integration reads, declared like the providers' own so that they are bound,
 * documented and listed in configuration metadata the same way.
 */
public final class StarterSettings {
    /** Which provider the starter opens, by its registered name; unset: the only one on the class path. */
    public static final Setting<String> PROVIDER = Setting.text(
            dev.agentpersistence.spi.ProviderConfig.PROVIDER,
            null,
            "The storage provider to open, by name (inmemory, file, jdbc, redis, s3, or a custom provider's name); "
                    + "unset: the only provider on the class path.");

    /** How long the health indicator waits for the store before reporting DOWN. */
    public static final Setting<Duration> HEALTH_TIMEOUT = Setting.duration(
            "agent.persistence.health.timeout",
            Duration.ofSeconds(2),
            "How long the agentPersistence health indicator waits for the store before reporting DOWN.");

    /** How many of each agent's newest checkpoints the scheduled retention sweep keeps (declared with the policy). */
    public static final Setting<Integer> RETENTION_KEEP_LATEST = RetentionPolicy.KEEP_LATEST;
    /** How old a checkpoint may get before the scheduled retention sweep removes it (declared with the policy). */
    public static final Setting<Duration> RETENTION_MAX_AGE = RetentionPolicy.MAX_AGE;
    /** How often the retention sweep runs. */
    public static final Setting<Duration> RETENTION_INTERVAL = Setting.duration(
            "agent.persistence.retention.interval",
            Duration.ofHours(1),
            "How often the retention sweep runs when keep-latest or max-age is set.");

    /** Every setting of this module. */
    public static final List<Setting<?>> SETTINGS =
            List.of(PROVIDER, HEALTH_TIMEOUT, RETENTION_KEEP_LATEST, RETENTION_MAX_AGE, RETENTION_INTERVAL);

    private StarterSettings() {}
}
