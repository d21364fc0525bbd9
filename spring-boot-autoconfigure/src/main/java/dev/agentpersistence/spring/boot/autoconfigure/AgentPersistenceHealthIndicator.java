package dev.agentpersistence.spring.boot.autoconfigure;

import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.backend.StoredForm;
import dev.agentpersistence.spi.ProviderConfig;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * UP when the store answers a cheap round trip within the timeout:
 * {@link dev.agentpersistence.storage.StorageShell#checkHealth()} for the built-in providers, reading the latest
 * checkpoint of a probe agent for others. DOWN with the exception's message (credentials already hidden by the library,
 * and hidden again here), or with the timeout and the last failure seen. The check runs on its own daemon thread, so a
 * hung store never holds the caller longer than the timeout; a check still running is waited for again by the next call
 * rather than started twice, and when it fails after its caller stopped waiting (a store that is down can take longer
 * than the timeout to refuse: a pool's connection timeout), its failure is reported from then on, so the reason names
 * the cause and not only the wait.
 */
public final class AgentPersistenceHealthIndicator implements HealthIndicator {
    /** The agent whose latest checkpoint a provider without {@code checkHealth} is asked for. */
    static final String PROBE_AGENT = PersistenceStorageProvider.HEALTH_PROBE_AGENT;

    private static final Executor DAEMON_THREAD = task -> {
        Thread thread = new Thread(task, "agent-persistence-health");
        thread.setDaemon(true);
        thread.start();
    };

    private final PersistenceStorageProvider<?> provider;
    private final String providerName;
    private final String store;
    private final Duration timeout;
    private final AtomicReference<CompletableFuture<Void>> running = new AtomicReference<>();
    private final AtomicReference<String> lastFailure = new AtomicReference<>();

    /** Checks {@code provider}, waiting at most {@code timeout}. */
    public AgentPersistenceHealthIndicator(PersistenceStorageProvider<?> provider, Duration timeout) {
        this.provider = Objects.requireNonNull(provider, "provider");
        this.providerName = StorageProviderBeans.name(provider);
        this.store = provider.storedForm().map(StoredForm::description).orElse(null);
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    @Override
    public Health health() {
        CompletableFuture<Void> check =
                running.updateAndGet(current -> current != null && !current.isDone() ? current : start());
        try {
            check.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return details(Health.up()).build();
        } catch (ExecutionException e) {
            return down(describe(e.getCause()));
        } catch (TimeoutException e) {
            String last = lastFailure.get();
            return down("no answer within " + StarterSettings.HEALTH_TIMEOUT.show(timeout)
                    + (last == null ? "" : "; the last check failed with " + last));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return down("interrupted while waiting for the store");
        }
    }

    private CompletableFuture<Void> start() {
        CompletableFuture<Void> check = CompletableFuture.runAsync(this::probe, DAEMON_THREAD);
        check.whenComplete((ok, failure) -> lastFailure.set(failure == null ? null : describe(unwrap(failure))));
        return check;
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                ? failure.getCause()
                : failure;
    }

    private void probe() {
        provider.checkHealth();
    }

    private Health down(String error) {
        return details(Health.down()).withDetail("error", error).build();
    }

    /** The provider's name and, for a storage shell, what and where its store is (credentials hidden). */
    private Health.Builder details(Health.Builder health) {
        health.withDetail("provider", providerName);
        if (store != null) {
            health.withDetail("store", ProviderConfig.redact(store));
        }
        return health;
    }

    private static String describe(Throwable failure) {
        String message = failure.getMessage();
        return failure.getClass().getName() + (message == null ? "" : ": " + ProviderConfig.redact(message));
    }
}
