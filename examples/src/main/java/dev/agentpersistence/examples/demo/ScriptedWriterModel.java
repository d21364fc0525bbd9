package dev.agentpersistence.examples.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A deterministic stand-in for the LLM of the write-up. It keeps one session per agent that survives rollbacks, as a
 * shared CLI session does: an agent named in {@code flawedAgents} breaks a rule on its first call; asked again, it
 * writes the section correctly only when the prompt says a rollback was performed, and otherwise answers that the work
 * is already done (the write-up's failure mode before retry feedback was added). Other agents always answer correctly.
 *
 * <p>The rules broken: overview-writer uses the wrong heading, concepts-writer writes 7 concept blocks (3 to 5 are
 * allowed), visualization-writer leaves its diagram's code fence open.
 */
public final class ScriptedWriterModel implements WriterModel {
    private static final List<String[]> CONCEPTS = List.of(
            new String[] {
                "Checkpoint",
                "A save point of the agent.",
                "The history and state saved after a node, with a version.",
                "An immutable, versioned snapshot; a second writer of the same version gets a conflict.",
                "persistence.createCheckpoint(ctx, \"concepts-writer\", null, null);"
            },
            new String[] {
                "Postcondition",
                "A check that the agent did its job.",
                "Rule-based checks run after the node, e.g. 3-5 concept blocks.",
                "Deterministic predicates over the state; the same file always gives the same verdict.",
                "Conditions.countBetween(\"concept blocks\", ws -> count(ws), 3, 5);"
            },
            new String[] {
                "Rollback",
                "Undo a failed attempt.",
                "The document is restored from the backup taken before the attempt.",
                "State backup plus inverse tool calls, newest first; failures are reported, not hidden.",
                "persistence.rollbackToCheckpoint(checkpointId, ctx);"
            },
            new String[] {
                "Retry feedback",
                "Tell the agent what went wrong.",
                "The retry prompt says a rollback happened and lists the violations.",
                "Without it a session that remembers its work answers \"already done\".",
                "context.retryFeedback().map(RetryFeedback::toPrompt);"
            },
            new String[] {
                "Precondition",
                "Check the previous agent's work first.",
                "Rules checked before a node runs; a violation stops the pipeline.",
                "Preconditions are not retried: the node cannot fix an earlier node's output.",
                "Conditions.markdownSectionPresent(doc, \"# Overview\");"
            },
            new String[] {
                "Resume",
                "Continue where you stopped.",
                "A run with the same id skips the nodes that already have a checkpoint.",
                "The newest checkpoint's state is decoded and written back before the next node.",
                "pipeline.run(runId, workspace);"
            },
            new String[] {
                "Inverse tool",
                "A tool's undo button.",
                "Registered next to the tool; rollbacks call it with the same arguments.",
                "Inverses must be idempotent: they may run after a crash that left the call half done.",
                "RollbackToolRegistry.builder().registerRollback(placeOrder, cancelOrder);"
            });

    private final Set<String> flawedAgents;
    private final Map<String, List<String>> sessions = new ConcurrentHashMap<>();

    /** A model whose agents in {@code flawedAgents} break a rule on their first call. */
    public ScriptedWriterModel(Set<String> flawedAgents) {
        this.flawedAgents = Set.copyOf(Objects.requireNonNull(flawedAgents, "flawedAgents"));
    }

    /** The demo's model: concepts-writer writes 7 concept blocks first, 4 after the retry feedback. */
    public static ScriptedWriterModel demo() {
        return new ScriptedWriterModel(Set.of(DocumentPipeline.CONCEPTS_WRITER));
    }

    /** The prompts {@code agent} received, in order. */
    public List<String> prompts(String agent) {
        List<String> session = sessions.getOrDefault(agent, List.of());
        synchronized (session) {
            return List.copyOf(session);
        }
    }

    @Override
    public Reply complete(String agent, String prompt) {
        List<String> session = sessions.computeIfAbsent(agent, a -> new ArrayList<>());
        boolean remembersWork;
        synchronized (session) {
            remembersWork = !session.isEmpty();
            session.add(prompt);
        }
        if (!flawedAgents.contains(agent)) {
            return Reply.section(correct(agent));
        }
        if (!remembersWork) {
            return Reply.section(flawed(agent));
        }
        boolean toldAboutRollback = prompt.contains("ROLLBACK PERFORMED");
        return toldAboutRollback
                ? Reply.section(correct(agent))
                : new Reply("I have already completed this task.", null);
    }

    private static String correct(String agent) {
        return switch (agent) {
            case DocumentPipeline.OVERVIEW_WRITER -> overview("# Overview");
            case DocumentPipeline.CONCEPTS_WRITER -> concepts(4);
            case DocumentPipeline.VISUALIZATION_WRITER -> visualization(true);
            default -> throw new IllegalArgumentException("no script for agent " + agent);
        };
    }

    private static String flawed(String agent) {
        return switch (agent) {
            case DocumentPipeline.OVERVIEW_WRITER -> overview("# Introduction");
            case DocumentPipeline.CONCEPTS_WRITER -> concepts(7);
            case DocumentPipeline.VISUALIZATION_WRITER -> visualization(false);
            default -> throw new IllegalArgumentException("no script for agent " + agent);
        };
    }

    private static String overview(String heading) {
        return heading + "\n\nAgents fail: connections drop and the same prompt gives different answers. "
                + "This document explains how a pipeline of writer agents checks every step, rolls a failed "
                + "step back, retries it with feedback, and resumes after a crash from its last checkpoint.";
    }

    /** A {@code # Core Concepts} section with {@code count} concept blocks. */
    static String concepts(int count) {
        var text = new StringBuilder("# Core Concepts\n\n");
        for (int i = 0; i < count; i++) {
            String[] c = CONCEPTS.get(i);
            text.append("## Concept ")
                    .append(i + 1)
                    .append(": ")
                    .append(c[0])
                    .append("\n\n")
                    .append("### Easy\n")
                    .append(c[1])
                    .append("\n\n")
                    .append("### Normal\n")
                    .append(c[2])
                    .append("\n\n")
                    .append("### Expert\n")
                    .append(c[3])
                    .append("\n\n")
                    .append("```java\n")
                    .append(c[4])
                    .append("\n```\n\n");
        }
        return text.toString();
    }

    private static String visualization(boolean closed) {
        return "# Visualization\n\nEvery agent runs this flow (component: `" + MarkdownDocument.VISUALIZATION_FILE
                + "`).\n\n```mermaid\nflowchart TD\n"
                + "  A[Precondition check] -->|fail| C[Stop]\n"
                + "  A -->|pass| D[Back up] --> E[Run agent] --> F{Postcondition check}\n"
                + "  F -->|pass| G[Checkpoint] --> H[Next agent]\n"
                + "  F -->|fail| I[Roll back] --> J[Retry with feedback] --> D\n"
                + (closed ? "```\n" : "");
    }
}
