package dev.agentpersistence.spring.boot.autoconfigure;

import dev.agentpersistence.spi.Setting;
import java.time.Duration;
import java.util.List;

/**
 * The settings only the Spring Boot integration reads, declared like the providers' own so that they
 * are bound, documented and listed in configuration metadata the same way.
 */
public final class StarterSettings {
    /** How long the health indicator waits for the store before reporting DOWN. */
    public static final Setting<Duration> HEALTH_TIMEOUT = Setting.duration("agent.persistence.health.timeout",
            Duration.ofSeconds(2), "How long the agentPersistence health indicator waits for the store before reporting DOWN.");

    /** Every setting of this module. */
    public static final List<Setting<?>> SETTINGS = List.of(HEALTH_TIMEOUT);

    private StarterSettings() {
    }
}
