package dev.agentpersistence.tck;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.ToolCall;
import java.util.ArrayList;
import java.util.List;

/**
 * An agent run whose history grows by two small messages per step, as the history contracts save it: version
 * {@code step}, id {@code step-<step>}, node and metadata alternating between steps.
 */
final class GrowingRun {
    private final String agentId;
    private final List<AgentCheckpoint> saved = new ArrayList<>();
    private List<Message> history = List.of();

    GrowingRun(String agentId) {
        this.agentId = agentId;
    }

    /** The two messages step {@code step} adds: a question, then an answer or (every 7th step) a tool call. */
    static List<Message> step(int step) {
        Message answer = step % 7 == 3
                ? Message.toolCall(new ToolCall("call-" + step, "lookup", Checkpoints.json("{\"step\":" + step + "}")))
                : Message.assistant("a" + step).withMetadata("s", Integer.toString(step));
        return List.of(
                Message.user("q" + step + (step % 50 == 0 ? " ünïcödé 🙂" : "")).withId("q-" + step),
                answer.withId("a-" + step));
    }

    /** The checkpoint of {@code step} with {@code history}. */
    static AgentCheckpoint checkpoint(String agentId, long step, List<Message> history) {
        return AgentCheckpoint.builder()
                .checkpointId("step-" + step)
                .agentId(agentId)
                .version(step)
                .createdAt(Checkpoints.createdAt(step))
                .nodeId(step % 2 == 0 ? "think" : "act")
                .messageHistory(history)
                .metadata("parity", step % 2 == 0 ? "even" : "odd")
                .parentCheckpointId(step > 0 ? "step-" + (step - 1) : null)
                .build();
    }

    /** Continues from a checkpoint read back (a resumed run). */
    static GrowingRun resume(AgentCheckpoint latest) {
        var run = new GrowingRun(latest.agentId());
        run.history = latest.messageHistory();
        run.saved.add(latest);
        return run;
    }

    /** Saves the next {@code steps} steps through {@code provider}. */
    GrowingRun save(PersistenceStorageProvider<CheckpointFilter> provider, int steps) {
        for (int i = 0; i < steps; i++) {
            provider.saveCheckpoint(agentId, next());
        }
        return this;
    }

    /** The checkpoint of the next step, recorded as saved; the caller saves it. */
    AgentCheckpoint next() {
        long version = saved.isEmpty() ? 0 : saved.get(saved.size() - 1).version() + 1;
        var grown = new ArrayList<Message>(history.size() + 2);
        grown.addAll(history);
        grown.addAll(step((int) version));
        history = grown;
        var checkpoint = checkpoint(agentId, version, history);
        saved.add(checkpoint);
        return checkpoint;
    }

    /** Every checkpoint saved (or resumed from), ascending. */
    List<AgentCheckpoint> saved() {
        return saved;
    }

    /** The saved checkpoint of {@code version}. */
    AgentCheckpoint at(long version) {
        for (var checkpoint : saved) {
            if (checkpoint.version() == version) {
                return checkpoint;
            }
        }
        throw new IllegalArgumentException("no step " + version);
    }

    /** The saved checkpoints with {@code from <= version < to}. */
    List<AgentCheckpoint> between(long from, long to) {
        var result = new ArrayList<AgentCheckpoint>();
        for (var checkpoint : saved) {
            if (checkpoint.version() >= from && checkpoint.version() < to) {
                result.add(checkpoint);
            }
        }
        return result;
    }

    List<Message> history() {
        return history;
    }
}
