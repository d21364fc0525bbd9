package dev.agentpersistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.async.AsyncAgentPersistence;
import dev.agentpersistence.async.AsyncExecutor;
import dev.agentpersistence.async.AsyncStorageProvider;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The CompletableFuture views of a provider and of the facade give the blocking calls' results and exceptions. */
@Timeout(30)
class AsyncViewsTest {
    private final HeapTestStorage storage = new HeapTestStorage();
    private final AsyncExecutor executor = AsyncExecutor.create(4, 64);
    private final List<String> undone = new CopyOnWriteArrayList<>();
    private final AgentPersistence persistence = AgentPersistence.builder()
            .storage(storage)
            .rollbackTools(RollbackToolRegistry.builder()
                    .registerRollback("book", "unbook", args -> {
                        undone.add(args.asText());
                        return null;
                    })
                    .build())
            .build();

    @AfterEach
    void close() {
        executor.close();
    }

    @Test
    void theFacadeViewCheckpointsRollsBackAndForksWithoutBlockingTheCaller() {
        var async = AsyncAgentPersistence.of(persistence, executor);
        var context = new SimpleAgentContext("async-agent");
        context.append(Message.user("plan a trip"));

        AgentCheckpoint first =
                async.createCheckpoint(context, "plan", null, null).join();
        context.recordToolCall("book", TextNode.valueOf("hotel"));
        RollbackReport report = async.rollbackToLatestCheckpoint(context).join();
        AgentCheckpoint fork =
                async.fork("async-agent", first.checkpointId(), "async-fork").join();

        assertThat(first.version()).isZero();
        assertThat(report.restoredCheckpoint())
                .get()
                .extracting(AgentCheckpoint::checkpointId)
                .isEqualTo(first.checkpointId());
        assertThat(undone).containsExactly("hotel");
        assertThat(fork.messageHistory()).isEqualTo(first.messageHistory());
        assertThat(async.lineage("async-fork").join())
                .singleElement()
                .extracting(ForkOrigin::parentAgentId)
                .isEqualTo("async-agent");
        assertThat(async.checkpoints("async-agent").join()).containsExactly(first);
    }

    @Test
    void parallelSavesThroughTheProviderViewAllLandAndAConflictFailsItsFutureWithTheTypedException() {
        var async = AsyncStorageProvider.of(storage, executor);
        var saves = new CompletableFuture<?>[20];
        for (int v = 0; v < saves.length; v++) {
            saves[v] = async.saveCheckpoint("many", checkpoint("many", v, "cp-" + v));
        }
        CompletableFuture.allOf(saves).join();

        assertThat(async.getCheckpoints("many").join()).hasSize(20);
        assertThat(async.getLatestCheckpoint("many").join())
                .get()
                .extracting(AgentCheckpoint::version)
                .isEqualTo(19L);
        assertThatThrownBy(() -> async.saveCheckpoint("many", checkpoint("many", 3, "other-id"))
                        .join())
                .cause()
                .isInstanceOf(CheckpointConflictException.class);
        assertThatThrownBy(() -> AsyncAgentPersistence.of(persistence, executor)
                        .checkpoints("")
                        .join())
                .cause()
                .isInstanceOf(InvalidIdentifierException.class);
    }

    private static AgentCheckpoint checkpoint(String agentId, long version, String id) {
        return AgentCheckpoint.builder()
                .checkpointId(id)
                .agentId(agentId)
                .version(version)
                .createdAt(java.time.Instant.EPOCH.plusSeconds(version))
                .build();
    }
}
