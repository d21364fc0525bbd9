package dev.agentpersistence.observation;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.util.Objects;

/** Builds observation registries for applications that have a {@link MeterRegistry} and no observation setup. */
public final class AgentObservations {
    private AgentObservations() {}

    /**
     * A registry whose observations become meters in {@code meters} ({@link AgentMeterHandler}). An application with
     * its own {@link ObservationRegistry} (Spring Boot, tracing) registers an {@link AgentMeterHandler} there instead.
     */
    public static ObservationRegistry registryFor(MeterRegistry meters) {
        Objects.requireNonNull(meters, "meters");
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new AgentMeterHandler(meters));
        return registry;
    }
}
