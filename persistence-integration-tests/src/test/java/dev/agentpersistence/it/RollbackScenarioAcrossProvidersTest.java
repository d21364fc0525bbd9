package dev.agentpersistence.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.InverseCall;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.RollbackReport;
import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.SimpleAgentContext;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rollback scenario of the persistence documentation over every storage provider in the build: createUser("Alex"),
 * checkpoint, createUser("Daniel"), createUser("Maria"), roll back. Afterwards the user file holds only Alex and the
 * report lists removeUser(Maria), then removeUser(Daniel).
 */
class RollbackScenarioAcrossProvidersTest {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    @TempDir
    Path dir;

    private PersistenceStorageProvider<CheckpointFilter> storage;
    private final String agentId = "user-admin/" + UUID.randomUUID();

    static List<Backend> backends() {
        return Backends.available();
    }

    @AfterEach
    void cleanUp() {
        if (storage != null) {
            storage.deleteCheckpoints(agentId);
            storage.close();
        }
    }

    @Test
    void everyProviderModuleOfTheBuildIsDiscovered() {
        assertThat(PersistenceStorageProviders.available())
                .extracting(PersistenceStorageProviderFactory::name)
                .contains("inmemory", "file", "jdbc", "redis");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void rollingBackToTheCheckpointRemovesTheLaterUsers(Backend backend) throws Exception {
        storage = backend.open(dir);
        var users = new UserFile(dir.resolve("users.txt"));
        var createUser = users.createUser();
        var persistence = AgentPersistence.builder()
                .storage(storage)
                .rollbackTools(RollbackToolRegistry.builder()
                        .registerRollback(createUser, users.removeUser())
                        .build())
                .build();
        var agent = new SimpleAgentContext(agentId);

        agent.callTool(createUser, JSON.objectNode().put("name", "Alex"));
        var checkpoint = persistence.createCheckpoint(agent, "create-users", null, null);
        agent.callTool(createUser, JSON.objectNode().put("name", "Daniel"));
        agent.callTool(createUser, JSON.objectNode().put("name", "Maria"));
        assertThat(users.users()).containsExactly("Alex", "Daniel", "Maria");

        RollbackReport report = persistence.rollbackToCheckpoint(checkpoint.checkpointId(), agent);

        assertThat(users.users()).containsExactly("Alex");
        assertThat(report.restoredCheckpoint()).contains(checkpoint);
        assertThat(report.performed())
                .extracting(RollbackScenarioAcrossProvidersTest::describe)
                .containsExactly("removeUser(Maria)", "removeUser(Daniel)");
        assertThat(report.failures()).isEmpty();
        assertThat(report.withoutInverse()).isEmpty();
        assertThat(agent.messageHistory()).isEqualTo(checkpoint.messageHistory());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void rollingBackToTheLatestCheckpointWorksTheSame(Backend backend) throws Exception {
        storage = backend.open(dir);
        var users = new UserFile(dir.resolve("users.txt"));
        var createUser = users.createUser();
        var persistence = AgentPersistence.builder()
                .storage(storage)
                .automaticPersistence(true)
                .rollbackTools(RollbackToolRegistry.builder()
                        .registerRollback(createUser, users.removeUser())
                        .build())
                .build();
        var agent = new SimpleAgentContext(agentId);

        agent.callTool(createUser, JSON.objectNode().put("name", "Alex"));
        persistence.onNodeCompleted(agent, "create-alex", null, null);
        agent.callTool(createUser, JSON.objectNode().put("name", "Daniel"));
        agent.callTool(createUser, JSON.objectNode().put("name", "Maria"));

        var report = persistence.rollbackToLatestCheckpoint(agent);

        assertThat(users.users()).containsExactly("Alex");
        assertThat(report.outcome()).isEqualTo(RollbackReport.Outcome.RESTORED);
        assertThat(report.performed())
                .extracting(RollbackScenarioAcrossProvidersTest::describe)
                .containsExactly("removeUser(Maria)", "removeUser(Daniel)");

        persistence.markRunCompleted(agent);
        assertThat(persistence.rollbackToLatestCheckpoint(agent).outcome())
                .isEqualTo(RollbackReport.Outcome.RUN_COMPLETED);
        assertThat(persistence.checkpoints(agentId))
                .extracting(cp -> cp.version())
                .containsExactly(0L, 1L);
    }

    private static String describe(InverseCall call) {
        return call.inverseToolName() + "("
                + call.original().arguments().path("name").asText() + ")";
    }
}
