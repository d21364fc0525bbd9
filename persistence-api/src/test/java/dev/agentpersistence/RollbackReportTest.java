package dev.agentpersistence;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RollbackReportTest {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final List<String> users = new java.util.ArrayList<>();
    private final Tool createUser = Tool.of("createUser", args -> {
        users.add(args.path("name").asText());
        return JSON.textNode("created");
    });
    private final Tool removeUser = Tool.of("removeUser", args -> {
        users.remove(args.path("name").asText());
        return JSON.textNode("removed");
    });

    private AgentPersistence persistence() {
        return AgentPersistence.builder()
                .storage(new HeapTestStorage())
                .rollbackTools(RollbackToolRegistry.builder()
                        .registerRollback(createUser, removeUser)
                        .build())
                .build();
    }

    @Test
    void toolCallsThatWereNeverRecordedAreReportedAsNoCallsFound() throws Exception {
        var persistence = persistence();
        var ctx = new SimpleAgentContext("agent-1");
        var checkpoint = persistence.createCheckpoint(ctx, "plan", null, null);
        createUser.execute(JSON.objectNode().put("name", "Daniel")); // run, but not recorded in the history

        var report = persistence.rollbackToCheckpoint(checkpoint.checkpointId(), ctx);

        assertThat(users).containsExactly("Daniel");
        assertThat(report.isClean()).isTrue();
        assertThat(report.noCallsFound()).isTrue();
        assertThat(report.toString())
                .contains("checkpoint '" + checkpoint.checkpointId() + "'")
                .contains("no tool calls recorded since the checkpoint — nothing to undo");
    }

    @Test
    void recordedCallsAreUndoneAndListedOnePerLine() throws Exception {
        var persistence = persistence();
        var ctx = new SimpleAgentContext("agent-1");
        var checkpoint = persistence.createCheckpoint(ctx, "plan", null, null);
        ctx.callTool(createUser, JSON.objectNode().put("name", "Daniel"));
        ctx.recordToolCall(new ToolCall("read-1", "readUser", JSON.objectNode()));

        var report = persistence.rollbackToCheckpoint(checkpoint.checkpointId(), ctx);

        assertThat(users).isEmpty();
        assertThat(report.noCallsFound()).isFalse();
        var lines = report.toString().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).contains("restored").contains("1 undone, 0 failed, 1 without inverse");
        assertThat(lines.get(1)).contains("undone").contains("createUser").contains("by removeUser");
        assertThat(lines.get(2)).contains("no inverse").contains("readUser (call read-1)");
    }

    @Test
    void aFailedInverseIsShownWithItsError() {
        var failing = Tool.of("removeUser", args -> {
            throw new IOException("directory offline");
        });
        var call = new ToolCall("c-1", "createUser", JSON.objectNode());
        var result = RollbackToolRegistry.builder()
                .registerRollback("createUser", failing)
                .build()
                .undo(List.of(call));
        var checkpoint = AgentCheckpoint.builder()
                .checkpointId("cp")
                .agentId("a")
                .version(3)
                .createdAt(Instant.EPOCH)
                .build();

        var report = RollbackReport.restored(checkpoint, result);

        assertThat(report.isClean()).isFalse();
        assertThat(report.toString().lines())
                .hasSize(2)
                .last()
                .asString()
                .contains("FAILED")
                .contains("createUser (call c-1) by removeUser")
                .contains("IOException: directory offline");
        assertThat(result.toString()).startsWith("UndoResult: 0 undone, 1 failed, 0 without inverse");
    }

    @Test
    void nothingRestoredSaysWhy() {
        assertThat(RollbackReport.nothingRestored(RollbackReport.Outcome.NO_CHECKPOINT)
                        .toString())
                .contains("has no checkpoint");
        assertThat(RollbackReport.nothingRestored(RollbackReport.Outcome.NO_CHECKPOINT)
                        .noCallsFound())
                .isFalse();
        assertThat(RollbackReport.nothingRestored(RollbackReport.Outcome.RUN_COMPLETED)
                        .toString())
                .contains("completed");
    }
}
