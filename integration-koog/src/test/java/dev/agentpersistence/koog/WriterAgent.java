package dev.agentpersistence.koog;

import ai.koog.agents.core.agent.AIAgent;
import ai.koog.agents.core.agent.entity.AIAgentGraphStrategy;
import ai.koog.agents.core.agent.entity.AIAgentNode;
import ai.koog.agents.core.agent.entity.AIAgentNodeBase;
import ai.koog.agents.snapshot.feature.Persistence;
import ai.koog.agents.snapshot.providers.PersistenceStorageProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * A three-node Koog graph agent ({@code plan → draft → review}), each node one request to the scripted executor, with
 * Koog's {@code Persistence} feature checkpointing after every node.
 */
final class WriterAgent {
    static final String PLAN = "plan";
    static final String DRAFT = "draft";
    static final String REVIEW = "review";

    private WriterAgent() {}

    /** The agent; {@code beforeDraft} runs inside the draft node before its request (to fail or hang it). */
    static AIAgent<String, String> create(
            PersistenceStorageProvider<?> storage, ScriptedExecutor executor, Consumer<String> beforeDraft) {
        var strategy =
                AIAgentGraphStrategy.builder("writer").withInput(String.class).withOutput(String.class);
        AIAgentNodeBase<String, String> plan = step(PLAN, input -> {});
        AIAgentNodeBase<String, String> draft = step(DRAFT, beforeDraft);
        AIAgentNodeBase<String, String> review = step(REVIEW, input -> {});
        var graph = strategy.edge(strategy.nodeStart, plan)
                .edge(plan, draft)
                .edge(draft, review)
                .edge(review, strategy.nodeFinish)
                .build();
        return AIAgent.builder()
                .id("writer")
                .promptExecutor(executor.executor())
                .llmModel(ScriptedExecutor.MODEL)
                .systemPrompt("You write short reports.")
                .graphStrategy(graph)
                .install(Persistence.Feature, config -> {
                    config.setStorage(storage);
                    config.setEnableAutomaticPersistence(true);
                })
                .build();
    }

    static AIAgent<String, String> create(PersistenceStorageProvider<?> storage, ScriptedExecutor executor) {
        return create(storage, executor, input -> {});
    }

    /** What a run of {@code input} returns. */
    static String expectedOutput(String input) {
        return REVIEW + ": " + DRAFT + ": " + PLAN + ": " + input + " -> done -> done -> done";
    }

    /** A hook that writes {@code marker} and then blocks until the JVM is killed. */
    static Consumer<String> hangAfterWriting(Path marker) {
        return input -> {
            try {
                Files.writeString(marker, input);
                Thread.sleep(Long.MAX_VALUE);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
    }

    private static AIAgentNodeBase<String, String> step(String name, Consumer<String> before) {
        return AIAgentNode.builder(name)
                .withInput(String.class)
                .withOutput(String.class)
                .withAction((String input, ai.koog.agents.core.agent.context.AIAgentGraphContextBase context) -> {
                    before.accept(input);
                    return context.getLlm().writeSession(session -> {
                        session.appendPrompt((ai.koog.agents.core.agent.entity.PromptBuilderAction)
                                prompt -> prompt.user(name + ": " + input, null));
                        return session.requestLLM().textContent();
                    });
                })
                .build();
    }
}
