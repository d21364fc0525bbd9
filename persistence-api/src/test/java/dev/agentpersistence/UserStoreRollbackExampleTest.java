package dev.agentpersistence;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scenario of the persistence documentation: createUser("Alex"), checkpoint, createUser("Daniel"),
 * createUser("Maria"), roll back. The users live in a real file, so the undo is visible on disk.
 */
class UserStoreRollbackExampleTest {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    @TempDir
    Path dir;

    /** One user name a line, rewritten atomically on every change. */
    record UserFile(Path file) {
        List<String> users() throws IOException {
            return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
        }

        void write(List<String> users) throws IOException {
            var tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.write(tmp, users, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }

        Tool createUser() {
            return Tool.of("createUser", args -> {
                var users = new ArrayList<>(users());
                users.add(args.path("name").asText());
                write(users);
                return JSON.textNode("created " + args.path("name").asText());
            });
        }

        Tool removeUser() {
            return Tool.of("removeUser", args -> {
                var users = new ArrayList<>(users());
                users.remove(args.path("name").asText());
                write(users);
                return JSON.textNode("removed " + args.path("name").asText());
            });
        }
    }

    @Test
    void rollingBackRemovesTheUsersCreatedAfterTheCheckpoint() throws Exception {
        var store = new UserFile(dir.resolve("users.txt"));
        var createUser = store.createUser();
        var persistence = AgentPersistence.builder()
                .storage(new HeapTestStorage())
                .rollbackTools(RollbackToolRegistry.builder()
                        .registerRollback(createUser, store.removeUser())
                        .build())
                .build();
        var agent = new SimpleAgentContext("user-admin");

        agent.callTool(createUser, JSON.objectNode().put("name", "Alex"));
        var checkpoint = persistence.createCheckpoint(agent, "create-users", null, null);
        agent.callTool(createUser, JSON.objectNode().put("name", "Daniel"));
        agent.callTool(createUser, JSON.objectNode().put("name", "Maria"));
        assertThat(store.users()).containsExactly("Alex", "Daniel", "Maria");

        var report = persistence.rollbackToCheckpoint(checkpoint.checkpointId(), agent);

        assertThat(store.users()).containsExactly("Alex");
        assertThat(report.performed())
                .extracting(c -> c.inverseToolName() + "("
                        + c.original().arguments().path("name").asText() + ")")
                .containsExactly("removeUser(Maria)", "removeUser(Daniel)");
        assertThat(report.failures()).isEmpty();
        assertThat(report.withoutInverse()).isEmpty();
        assertThat(agent.messageHistory()).isEqualTo(checkpoint.messageHistory());
    }
}
