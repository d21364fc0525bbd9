package dev.agentpersistence.pipeline;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A deterministic stand-in for the language model behind the writer agents. Like the model in the write-up, it keeps
 * one session per agent that survives rollbacks: asked again without being told about the rollback, it answers "already
 * done". How each agent behaves is scripted by a {@link Mode}.
 */
final class ScriptedModel {

    /** How an agent's model behaves. */
    enum Mode {
        /** Always does the work right. */
        CORRECT,
        /** Breaks a rule on its first call; does it right once a prompt tells it about the rollback. */
        BREAKS_UNTIL_FEEDBACK,
        /** Breaks the same rule on every call. */
        NEVER_FIXES,
        /** Its first call writes part of the section and then loses the connection; right once told. */
        FAILS_UNTIL_FEEDBACK,
        /** Writes part of the section and then hangs (for the kill test). */
        HANGS
    }

    /**
     * A model answer.
     *
     * @param text what the model says
     * @param section the markdown section to insert, or {@code null} for none
     * @param writeFile whether to write the visualization file
     * @param failure an exception the agent hits after writing {@code section}, or {@code null}
     * @param hang whether the agent hangs after writing {@code section}
     */
    record Reply(String text, String section, boolean writeFile, Exception failure, boolean hang) {
        boolean alreadyDone() {
            return section == null && failure == null && !hang;
        }
    }

    private final Map<String, Mode> modes;
    private final Map<String, List<String>> sessions = new ConcurrentHashMap<>();

    ScriptedModel(Map<String, Mode> modes) {
        this.modes = Map.copyOf(modes);
    }

    static ScriptedModel allCorrect() {
        return new ScriptedModel(Map.of());
    }

    /** The prompts each agent received, in order. */
    List<String> prompts(String agent) {
        return List.copyOf(sessions.getOrDefault(agent, List.of()));
    }

    int calls(String agent) {
        return prompts(agent).size();
    }

    Reply complete(String agent, String prompt) {
        List<String> session = sessions.computeIfAbsent(agent, a -> new ArrayList<>());
        boolean rememberedWork;
        synchronized (session) {
            rememberedWork = !session.isEmpty();
            session.add(prompt);
        }
        boolean toldAboutRollback = prompt.contains("ROLLBACK PERFORMED")
                && prompt.contains("restored to its state BEFORE your last execution");
        Mode mode = modes.getOrDefault(agent, Mode.CORRECT);
        return switch (mode) {
            case CORRECT -> correct(agent);
            case NEVER_FIXES -> broken(agent);
            case HANGS -> new Reply("working", partial(agent), false, null, true);
            case BREAKS_UNTIL_FEEDBACK ->
                !rememberedWork ? broken(agent) : toldAboutRollback ? correct(agent) : alreadyDone();
            case FAILS_UNTIL_FEEDBACK ->
                !rememberedWork
                        ? new Reply("partial", partial(agent), false, new IOException("model connection lost"), false)
                        : toldAboutRollback ? correct(agent) : alreadyDone();
        };
    }

    private static Reply alreadyDone() {
        return new Reply("I have already completed this task.", null, false, null, false);
    }

    private static Reply correct(String agent) {
        return switch (agent) {
            case "overview-writer" ->
                new Reply("done", "# Overview\n\nCheckpoints let agents resume.", false, null, false);
            case "concepts-writer" -> new Reply("done", Docs.concepts(4), false, null, false);
            case "visualization-writer" ->
                new Reply("done", "# Visualization\n\n![flow](visualization.mmd)", true, null, false);
            default -> throw new IllegalArgumentException("no script for " + agent);
        };
    }

    private static Reply broken(String agent) {
        return switch (agent) {
            case "overview-writer" -> new Reply("done", "# Introduction\n\nWrong heading.", false, null, false);
            case "concepts-writer" -> new Reply("done", Docs.concepts(7), false, null, false);
            case "visualization-writer" ->
                new Reply("done", "# Visualization\n\n![flow](visualization.mmd)", false, null, false);
            default -> throw new IllegalArgumentException("no script for " + agent);
        };
    }

    private static String partial(String agent) {
        return "# PARTIAL WORK OF " + agent + "\n\n```java\nunfinished(";
    }
}
