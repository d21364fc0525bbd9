package dev.agentpersistence.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.Message;
import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.SimpleAgentContext;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An agent resumes from the file store after the process that wrote it is gone. */
class FileRestartTest {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    @TempDir
    Path dir;

    @Test
    void aNewProcessResumesFromTheLatestCheckpointAndUndoesItsOwnLaterCalls() throws Exception {
        var backend = Backends.of("file").get(0);
        var users = new UserFile(dir.resolve("users.txt"));
        var createUser = users.createUser();
        var tools = RollbackToolRegistry.builder()
                .registerRollback(createUser, users.removeUser())
                .build();

        String checkpointId;
        try (var storage = backend.open(dir)) {
            var persistence = AgentPersistence.builder()
                    .storage(storage)
                    .rollbackTools(tools)
                    .build();
            var agent = new SimpleAgentContext("report-writer")
                    .append(Message.user("write the report"))
                    .putState("outline", JSON.arrayNode().add("intro").add("body"));
            agent.callTool(createUser, JSON.objectNode().put("name", "Alex"));
            checkpointId = persistence
                    .createCheckpoint(agent, "outline", JSON.textNode("topic"), "String")
                    .checkpointId();
        }

        try (var storage = backend.open(dir)) {
            var persistence = AgentPersistence.builder()
                    .storage(storage)
                    .rollbackTools(tools)
                    .build();
            var resumed = new SimpleAgentContext("report-writer");
            var report = persistence.rollbackToLatestCheckpoint(resumed);

            assertThat(report.restoredCheckpoint())
                    .get()
                    .extracting(cp -> cp.checkpointId())
                    .isEqualTo(checkpointId);
            assertThat(resumed.currentNodeId()).isEqualTo("outline");
            assertThat(resumed.input()).isEqualTo(JSON.textNode("topic"));
            assertThat(resumed.state().get("outline"))
                    .isEqualTo(JSON.arrayNode().add("intro").add("body"));
            assertThat(resumed.messageHistory()).hasSize(3);
            assertThat(report.performed()).isEmpty();

            resumed.callTool(createUser, JSON.objectNode().put("name", "Daniel"));
            persistence.rollbackToCheckpoint(checkpointId, resumed);
            assertThat(users.users()).containsExactly("Alex");
        }
    }
}
