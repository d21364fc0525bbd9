package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.InverseCall;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.Tool;
import dev.agentpersistence.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Tool calls of a failed attempt, and only of that attempt, are undone through their inverse tools. */
class ToolRollbackTest {
    private final PersistenceStorageProvider<CheckpointFilter> storage = Storages.inMemory();
    private final Set<String> users = new ConcurrentSkipListSet<>();
    private final List<String> inverseCalls = new CopyOnWriteArrayList<>();
    private final List<RetryFeedback> feedbackSeen = new CopyOnWriteArrayList<>();

    private final Tool createUser = Tool.of("createUser", args -> {
        users.add(args.path("name").asText());
        return TextNode.valueOf("created");
    });
    private final Tool sendEmail = Tool.of("sendEmail", args -> TextNode.valueOf("sent"));
    private final Tool chargeCard = Tool.of("chargeCard", args -> TextNode.valueOf("charged"));
    private final RollbackToolRegistry registry = RollbackToolRegistry.builder()
            .registerRollback("createUser", "removeUser", args -> {
                inverseCalls.add("removeUser " + args.path("name").asText());
                users.remove(args.path("name").asText());
                return TextNode.valueOf("removed");
            })
            .registerRollback("chargeCard", "refund", args -> {
                inverseCalls.add("refund");
                throw new IllegalStateException("payment provider down");
            })
            .build();

    @AfterEach
    void close() {
        storage.close();
    }

    private static JsonNode name(String name) {
        return JsonNodeFactory.instance.objectNode().put("name", name);
    }

    private Pipeline<Draft> pipeline() {
        return Pipeline.builder("provisioning", Draft.CODEC)
                .storage(storage)
                .rollbackTools(registry)
                .node(Node.<Draft>of("register", ctx -> {
                    ctx.callTool(createUser, name("alice"));
                    return ctx.state().append("registered;", "register");
                }))
                .node(Node.<Draft>builder("provision")
                        .postcondition(Conditions.of(
                                "provisioned", d -> d.text().contains("provisioned"), d -> "no provisioning record"))
                        .action(ctx -> {
                            ctx.retryFeedback().ifPresent(feedbackSeen::add);
                            if (ctx.attempt() == 1) {
                                ctx.callTool(createUser, name("bob"));
                                users.add("carol");
                                ctx.recordToolCall(new ToolCall("manual-1", "createUser", name("carol")));
                                ctx.callTool(sendEmail, name("bob"));
                                ctx.callTool(chargeCard, name("bob"));
                                return ctx.state().append("forgot the record;", "provision");
                            }
                            ctx.callTool(createUser, name("dave"));
                            return ctx.state().append("provisioned;", "provision");
                        })
                        .build())
                .build();
    }

    @Test
    void inversesRunForTheFailedAttemptOnlyNewestFirstAndFailuresAreReported() {
        var result = pipeline().run("tools-1", Draft.empty());

        assertThat(result.isCompleted()).as(result.toString()).isTrue();
        assertThat(users).containsExactly("alice", "dave");
        assertThat(inverseCalls).containsExactly("refund", "removeUser carol", "removeUser bob");

        assertThat(feedbackSeen).singleElement().satisfies(feedback -> {
            assertThat(feedback.rollback().performed())
                    .extracting(InverseCall::inverseToolName, c -> c.original().id())
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple("removeUser", "manual-1"),
                            org.assertj.core.groups.Tuple.tuple("removeUser", "provision#1.1"));
            assertThat(feedback.rollback().failures()).singleElement().satisfies(f -> {
                assertThat(f.inverseToolName()).isEqualTo("refund");
                assertThat(f.error()).hasMessage("payment provider down");
            });
            assertThat(feedback.rollback().withoutInverse())
                    .extracting(ToolCall::toolName)
                    .containsExactly("sendEmail");
            assertThat(feedback.toPrompt())
                    .contains(
                            "Tool calls undone: 2\n",
                            "Tool calls that could NOT be undone (their effects remain):\n"
                                    + "- chargeCard (call provision#1.3): IllegalStateException: payment provider "
                                    + "down\n",
                            "Tool calls without an undo (their effects remain):\n- sendEmail (call provision#1.2)\n");
        });

        // The checkpoint after "provision" holds the tool messages of register and of the passing attempt only.
        AgentCheckpoint provisioned = storage.getLatestCheckpoint(
                        Pipeline.storedRunId("tools-1"),
                        CheckpointFilter.builder().includeTombstones(false).build())
                .orElseThrow();
        assertThat(provisioned.nodeId()).isEqualTo("provision");
        List<String> calls = new ArrayList<>();
        for (Message message : provisioned.messageHistory()) {
            if (message.role() == Message.Role.TOOL_CALL) {
                calls.add(message.toolCall().toolName() + " "
                        + message.toolCall().arguments().path("name").asText());
            }
        }
        assertThat(calls).containsExactly("createUser alice", "createUser dave");
        assertThat(provisioned.messageHistory())
                .filteredOn(m -> m.role() == Message.Role.TOOL_RESULT)
                .hasSize(2);
        assertThat(result.state().steps()).containsExactly("register", "provision");
    }

    @Test
    void eventReportsTheToolRollbackOfTheAttempt() {
        var events = new RecordingListener();
        var pipeline = Pipeline.builder("provisioning", Draft.CODEC)
                .storage(storage)
                .rollbackTools(registry)
                .listener(events)
                .node(Node.<Draft>builder("once")
                        .retryPolicy(RetryPolicy.noRetries())
                        .action(ctx -> {
                            ctx.callTool(createUser, name("erin"));
                            throw new IllegalStateException("model refused");
                        })
                        .build())
                .build();

        var result = pipeline.run("tools-2", Draft.empty());

        assertThat(result.failure()).get().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(PipelineFailure.Reason.RETRIES_EXHAUSTED);
            assertThat(f.attempts()).isEqualTo(1);
            assertThat(f.exception()).hasMessage("model refused");
        });
        assertThat(users).isEmpty();
        assertThat(events.of(PipelineEvent.RollbackPerformed.class))
                .singleElement()
                .satisfies(r -> assertThat(r.toolRollback().performed()).hasSize(1));
        assertThat(events.of(PipelineEvent.RetryScheduled.class)).isEmpty();
    }
}
