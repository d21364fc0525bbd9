package dev.agentpersistence.tck;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;

/**
 * Locates the real server a provider's tests run against (PostgreSQL, MariaDB, Redis, …).
 *
 * <p>Order: the endpoint in the environment variable, else the well-known local default when it
 * answers, else a container when the caller can start one (Testcontainers with a working Docker).
 * When none is found the test is skipped with the reason, or fails when
 * {@value #REQUIRE_SERVICES} is {@code true} (as in CI), so a missing server is never silently
 * skipped there.
 */
public final class TestServices {
    /** Environment variable (or system property) that turns a missing server into a failure. */
    public static final String REQUIRE_SERVICES = "AGENT_PERSISTENCE_TEST_REQUIRE_SERVICES";

    private TestServices() {
    }

    /** Whether missing servers fail the build. */
    public static boolean servicesRequired() {
        String value = System.getProperty(REQUIRE_SERVICES, System.getenv(REQUIRE_SERVICES));
        return value != null && value.trim().equalsIgnoreCase("true");
    }

    /**
     * Finds an endpoint for {@code service}.
     *
     * @param service         a name for messages ("PostgreSQL")
     * @param environmentVar  the variable that names the endpoint explicitly
     * @param localDefault    the endpoint to try when the variable is unset
     * @param reachable       probes an endpoint; must return quickly and not throw
     * @param container       starts a container and returns its endpoint, or empty when Docker is unavailable
     * @return a reachable endpoint; never returns without one (skips or fails instead)
     */
    public static String locate(String service, String environmentVar, String localDefault,
                                Predicate<String> reachable, Supplier<Optional<String>> container) {
        Objects.requireNonNull(service, "service");
        var tried = new ArrayList<String>();
        String explicit = System.getenv(environmentVar);
        if (explicit != null && !explicit.isBlank()) {
            if (reachable.test(explicit)) {
                return explicit;
            }
            tried.add(environmentVar + "=" + redact(explicit) + " did not answer");
        } else if (localDefault != null) {
            if (reachable.test(localDefault)) {
                return localDefault;
            }
            tried.add("the local default " + redact(localDefault) + " did not answer (" + environmentVar + " unset)");
        }
        if (container != null) {
            try {
                Optional<String> started = container.get();
                if (started.isPresent()) {
                    return started.get();
                }
                tried.add("no container engine (Docker) available");
            } catch (RuntimeException | LinkageError e) {
                tried.add("starting a container failed: " + e);
            }
        }
        return unavailable(service, tried);
    }

    /** Skips (or, when services are required, fails) because {@code service} is missing. */
    public static <T> T unavailable(String service, List<String> reasons) {
        String message = service + " is not available for tests: " + String.join("; ", reasons);
        if (servicesRequired()) {
            throw new IllegalStateException(message + ". " + REQUIRE_SERVICES + "=true, so this fails instead of skipping.");
        }
        Assumptions.abort(message);
        throw new AssertionError("unreachable");
    }

    private static String redact(String endpoint) {
        return dev.agentpersistence.spi.ProviderConfig.redact(endpoint);
    }
}
