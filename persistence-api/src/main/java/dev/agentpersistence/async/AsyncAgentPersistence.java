package dev.agentpersistence.async;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentContext;
import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.ForkOrigin;
import dev.agentpersistence.RollbackReport;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link CompletableFuture} view of an {@link AgentPersistence}: each method runs the facade's blocking method of the
 * same name on an {@link AsyncExecutor} (threading, back-pressure, cancellation and errors as documented there). The
 * facade's own guarantees hold unchanged (version assignment and conflict retries, inverse tools newest first). A
 * rollback changes the {@link AgentContext} it is given from the executor's thread: do not use that context until its
 * future completes.
 */
public final class AsyncAgentPersistence {
    private final AgentPersistence persistence;
    private final AsyncExecutor executor;

    private AsyncAgentPersistence(AgentPersistence persistence, AsyncExecutor executor) {
        this.persistence = persistence;
        this.executor = executor;
    }

    /** The async view of {@code persistence}, running calls on {@code executor}. */
    public static AsyncAgentPersistence of(AgentPersistence persistence, AsyncExecutor executor) {
        return new AsyncAgentPersistence(
                Objects.requireNonNull(persistence, "persistence"), Objects.requireNonNull(executor, "executor"));
    }

    /** The facade the calls go to. */
    public AgentPersistence persistence() {
        return persistence;
    }

    public AsyncExecutor executor() {
        return executor;
    }

    /** {@link AgentPersistence#createCheckpoint(AgentContext, String, JsonNode, String, Map)}. */
    public CompletableFuture<AgentCheckpoint> createCheckpoint(
            AgentContext context,
            String nodeId,
            JsonNode lastInput,
            String lastInputType,
            Map<String, String> metadata) {
        Objects.requireNonNull(context, "context");
        return executor.submit(
                "createCheckpoint(" + context.agentId() + ")",
                () -> persistence.createCheckpoint(context, nodeId, lastInput, lastInputType, metadata));
    }

    /** {@link AgentPersistence#createCheckpoint(AgentContext, String, JsonNode, String)}. */
    public CompletableFuture<AgentCheckpoint> createCheckpoint(
            AgentContext context, String nodeId, JsonNode lastInput, String lastInputType) {
        return createCheckpoint(context, nodeId, lastInput, lastInputType, Map.of());
    }

    /** {@link AgentPersistence#markRunCompleted}. */
    public CompletableFuture<AgentCheckpoint> markRunCompleted(AgentContext context) {
        Objects.requireNonNull(context, "context");
        return executor.submit(
                "markRunCompleted(" + context.agentId() + ")", () -> persistence.markRunCompleted(context));
    }

    /** {@link AgentPersistence#rollbackToCheckpoint}. */
    public CompletableFuture<RollbackReport> rollbackToCheckpoint(String checkpointId, AgentContext context) {
        Objects.requireNonNull(context, "context");
        return executor.submit(
                "rollbackToCheckpoint(" + context.agentId() + ")",
                () -> persistence.rollbackToCheckpoint(checkpointId, context));
    }

    /** {@link AgentPersistence#rollbackToLatestCheckpoint}. */
    public CompletableFuture<RollbackReport> rollbackToLatestCheckpoint(AgentContext context) {
        Objects.requireNonNull(context, "context");
        return executor.submit(
                "rollbackToLatestCheckpoint(" + context.agentId() + ")",
                () -> persistence.rollbackToLatestCheckpoint(context));
    }

    /** {@link AgentPersistence#checkpoints}. */
    public CompletableFuture<List<AgentCheckpoint>> checkpoints(String agentId) {
        return executor.submit("checkpoints(" + agentId + ")", () -> persistence.checkpoints(agentId));
    }

    /** {@link AgentPersistence#latestCheckpoint}. */
    public CompletableFuture<Optional<AgentCheckpoint>> latestCheckpoint(String agentId) {
        return executor.submit("latestCheckpoint(" + agentId + ")", () -> persistence.latestCheckpoint(agentId));
    }

    /** {@link AgentPersistence#checkpoint}. */
    public CompletableFuture<Optional<AgentCheckpoint>> checkpoint(String agentId, String checkpointId) {
        return executor.submit("checkpoint(" + agentId + ")", () -> persistence.checkpoint(agentId, checkpointId));
    }

    /** {@link AgentPersistence#fork}. */
    public CompletableFuture<AgentCheckpoint> fork(String agentId, String checkpointId, String newAgentId) {
        return executor.submit(
                "fork(" + agentId + " -> " + newAgentId + ")",
                () -> persistence.fork(agentId, checkpointId, newAgentId));
    }

    /** {@link AgentPersistence#lineage}. */
    public CompletableFuture<List<ForkOrigin>> lineage(String agentId) {
        return executor.submit("lineage(" + agentId + ")", () -> persistence.lineage(agentId));
    }

    @Override
    public String toString() {
        return "AsyncAgentPersistence[" + persistence + " on " + executor + "]";
    }
}
