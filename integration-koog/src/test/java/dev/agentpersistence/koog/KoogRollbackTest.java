package dev.agentpersistence.koog;

import static org.assertj.core.api.Assertions.assertThat;

import ai.koog.agents.core.agent.AIAgent;
import ai.koog.agents.core.agent.context.AIAgentGraphContextBase;
import ai.koog.agents.core.agent.entity.AIAgentGraphStrategy;
import ai.koog.agents.core.agent.entity.AIAgentNode;
import ai.koog.agents.core.agent.entity.AIAgentNodeBase;
import ai.koog.agents.core.agent.entity.PromptBuilderAction;
import ai.koog.agents.snapshot.feature.AgentCheckpointData;
import ai.koog.agents.snapshot.feature.Persistence;
import ai.koog.agents.snapshot.feature.PersistenceKt;
import ai.koog.prompt.message.Message;
import ai.koog.prompt.message.MessagePart;
import ai.koog.prompt.message.ResponseMetaInfo;
import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.Tool;
import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import kotlin.coroutines.EmptyCoroutineContext;
import kotlinx.coroutines.BuildersKt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rollback through Koog's API ({@code Persistence.rollbackToCheckpoint}) to a checkpoint read from our store undoes a
 * tool's side effect with the inverse registered in our {@link RollbackToolRegistry}.
 */
class KoogRollbackTest {
    private static final String SESSION = "accounts";

    @TempDir
    Path dir;

    private final Set<String> users = new ConcurrentSkipListSet<>();
    private final List<String> calls = new ArrayList<>();

    private final Tool removeUser = Tool.of("removeUser", arguments -> {
        String name = arguments.get("name").asText();
        calls.add("removeUser " + name);
        users.remove(name);
        calls.add("users left: " + users);
        return null;
    });

    @Test
    void koogsRollbackCallsOurInverseToolForTheCallsAfterTheCheckpoint() {
        var tools = RollbackToolRegistry.builder()
                .registerRollback("createUser", removeUser)
                .build();
        var rolledBack = new AtomicBoolean();
        String output;
        try (var provider = JdbcStorage.builder(JdbcStorageConfig.custom()
                        .url("jdbc:sqlite:" + dir.resolve("accounts.db"))
                        .build())
                .build()) {
            var storage = KoogCheckpointStorage.of(provider);
            var strategy = AIAgentGraphStrategy.builder("accounts")
                    .withInput(String.class)
                    .withOutput(String.class);
            AIAgentNodeBase<String, String> plan = node("plan", (input, context) -> input + " planned");
            AIAgentNodeBase<String, String> create = node("create", (input, context) -> createUser(context, "Dan"));
            AIAgentNodeBase<String, String> check = node("check", (input, context) -> {
                if (!rolledBack.getAndSet(true)) {
                    AgentCheckpointData afterPlan = latestAfter(storage, "/plan");
                    rollback(
                            context,
                            afterPlan.getCheckpointId()); // takes effect as the run goes back to the plan checkpoint
                }
                return input;
            });
            var graph = strategy.edge(strategy.nodeStart, plan)
                    .edge(plan, create)
                    .edge(create, check)
                    .edge(check, strategy.nodeFinish)
                    .build();
            AIAgent<String, String> agent = AIAgent.builder()
                    .id("accounts")
                    .promptExecutor(new ScriptedExecutor().executor())
                    .llmModel(ScriptedExecutor.MODEL)
                    .graphStrategy(graph)
                    .install(Persistence.Feature, config -> {
                        config.setStorage(storage);
                        config.setEnableAutomaticPersistence(true);
                        config.setRollbackToolRegistry(KoogRollbackTools.registry(tools));
                    })
                    .build();

            output = agent.run("open accounts", SESSION);
        }

        assertThat(calls).containsExactly("createUser Dan", "removeUser Dan", "users left: []", "createUser Dan");
        assertThat(users)
                .as("the run went on from the plan checkpoint and created Dan again")
                .containsExactly("Dan");
        assertThat(output).isEqualTo("created Dan");
    }

    /** The side effect, recorded in Koog's history as a tool call and its result. */
    private String createUser(AIAgentGraphContextBase context, String name) {
        calls.add("createUser " + name);
        users.add(name);
        String callId = "call-" + calls.size();
        return context.getLlm().writeSession(session -> {
            kotlin.time.Instant now = kotlin.time.Instant.Companion.fromEpochMilliseconds(System.currentTimeMillis());
            session.appendPrompt((PromptBuilderAction) prompt -> prompt.message(new Message.Assistant(
                            new MessagePart.Tool.Call(callId, "createUser", "{\"name\":\"" + name + "\"}"),
                            new ResponseMetaInfo(now)))
                    .toolResult(new MessagePart.Tool.Result(callId, "createUser", "created", false, null)));
            return "created " + name;
        });
    }

    private static AgentCheckpointData latestAfter(KoogCheckpointStorage storage, String nodeSuffix) {
        try {
            return storage.getLatestCheckpointAsync(
                            SESSION,
                            data -> data.getGraphProperties() != null
                                    && data.getGraphProperties().getNodePath().endsWith(nodeSuffix))
                    .get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Koog's rollback is a suspend function; a Java node action runs it to completion. */
    private static void rollback(AIAgentGraphContextBase context, String checkpointId) {
        Persistence persistence = PersistenceKt.persistence(context);
        try {
            BuildersKt.runBlocking(
                    EmptyCoroutineContext.INSTANCE,
                    (scope, continuation) -> persistence.rollbackToCheckpoint(checkpointId, context, continuation));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static AIAgentNodeBase<String, String> node(
            String name, ai.koog.agents.core.agent.entity.ContextualAction<String, String> action) {
        return AIAgentNode.builder(name)
                .withInput(String.class)
                .withOutput(String.class)
                .withAction(action)
                .build();
    }
}
