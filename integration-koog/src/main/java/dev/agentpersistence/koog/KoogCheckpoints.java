package dev.agentpersistence.koog;

import ai.koog.agents.snapshot.feature.AgentCheckpointData;
import ai.koog.agents.snapshot.feature.AgentCheckpointDataKt;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Message;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Maps a Koog {@link AgentCheckpointData} onto one of our {@link AgentCheckpoint}s and back, exactly.
 *
 * <p>The message history becomes our messages ({@link KoogMessages}); the node path, the last node's output, the
 * creation time and the version become our fields; everything else Koog's checkpoint holds (LLM parameters and model,
 * tools, the agent's storage, iterations, planner state, properties, the node path again) is kept in Koog's own JSON
 * under the state key {@link #KOOG_CHECKPOINT}.
 */
final class KoogCheckpoints {
    /** State key of Koog's JSON of the checkpoint, without its message history and last output. */
    static final String KOOG_CHECKPOINT = "koog.checkpoint";
    /** Metadata key of the Koog session id the checkpoint belongs to. */
    static final String SESSION_ID = "koog.sessionId";
    /** Metadata key of the checkpoint's kind: {@code graph}, {@code planner} or {@code tombstone}. */
    static final String KIND = "koog.kind";
    /** The {@code lastInputType} of a checkpoint whose {@code lastInput} is the last node's output. */
    static final String LAST_OUTPUT_TYPE = "koog.lastOutput";

    private KoogCheckpoints() {}

    static AgentCheckpoint toRecord(String agentId, String sessionId, AgentCheckpointData data, MessageMemo memo) {
        ObjectNode koog = KoogJson.checkpoint(withHistory(data, List.of()));
        koog.remove("messageHistory");
        List<ai.koog.prompt.message.Message> messages = data.getMessageHistory();
        var history = new ArrayList<Message>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            history.add(memo.record(messages.get(i), i));
        }
        var builder = AgentCheckpoint.builder()
                .checkpointId(data.getCheckpointId())
                .agentId(agentId)
                .version(data.getVersion())
                .createdAt(Instant.ofEpochSecond(
                        data.getCreatedAt().getEpochSeconds(),
                        data.getCreatedAt().getNanosecondsOfSecond()))
                .messageHistory(history)
                .metadata(SESSION_ID, sessionId);
        JsonNode graph = koog.path("graphProperties");
        if (AgentCheckpointDataKt.isTombstone(data)) {
            builder.nodeId(AgentCheckpoint.TOMBSTONE_NODE_ID).metadata(KIND, "tombstone");
        } else if (graph.isObject()) {
            builder.nodeId(graph.path("nodePath").asText()).metadata(KIND, "graph");
            JsonNode lastOutput = ((ObjectNode) graph).remove("lastOutput");
            if (lastOutput != null) {
                builder.lastInput(lastOutput).lastInputType(LAST_OUTPUT_TYPE);
            }
        } else if (data.getPlannerProperties() != null) {
            builder.metadata(KIND, "planner");
        }
        return builder.state(KOOG_CHECKPOINT, koog).build();
    }

    /**
     * The Koog checkpoint one of our checkpoints written by {@link #toRecord} holds.
     *
     * @throws CorruptCheckpointException when the checkpoint was not written by this module, or its parts no longer fit
     *     together
     */
    static AgentCheckpointData fromRecord(AgentCheckpoint record, MessageMemo memo) {
        JsonNode stored = record.state().get(KOOG_CHECKPOINT);
        if (stored == null || !stored.isObject()) {
            throw corrupt(
                    record,
                    "state key '" + KOOG_CHECKPOINT + "'",
                    "it has no Koog checkpoint: it was not " + "written by the Koog integration",
                    null);
        }
        ObjectNode koog = ((ObjectNode) stored).deepCopy();
        koog.putArray("messageHistory");
        if (record.lastInput() != null
                && LAST_OUTPUT_TYPE.equals(record.lastInputType())
                && koog.path("graphProperties").isObject()) {
            ((ObjectNode) koog.get("graphProperties")).set("lastOutput", record.lastInput());
        }
        AgentCheckpointData withoutHistory;
        try {
            withoutHistory = KoogJson.checkpoint(koog);
        } catch (RuntimeException e) {
            throw corrupt(
                    record, "state key '" + KOOG_CHECKPOINT + "'", "Koog cannot read it back: " + e.getMessage(), e);
        }
        var history = new ArrayList<ai.koog.prompt.message.Message>(
                record.messageHistory().size());
        for (int i = 0; i < record.messageHistory().size(); i++) {
            try {
                history.add(memo.message(
                        record.messageHistory().get(i), m -> KoogJson.message(KoogMessages.toKoogJson(m))));
            } catch (RuntimeException e) {
                throw corrupt(record, "message " + i, e.getMessage(), e);
            }
        }
        return withHistory(withoutHistory, history);
    }

    private static AgentCheckpointData withHistory(
            AgentCheckpointData data, List<ai.koog.prompt.message.Message> history) {
        return data.copy(
                data.getCheckpointId(),
                data.getCreatedAt(),
                history,
                data.getLlmParams(),
                data.getLlmModel(),
                data.getTools(),
                data.getStorage(),
                data.getAgentIterations(),
                data.getVersion(),
                data.getGraphProperties(),
                data.getPlannerProperties(),
                data.getProperties());
    }

    private static CorruptCheckpointException corrupt(
            AgentCheckpoint record, String location, String problem, Throwable cause) {
        return new CorruptCheckpointException(record.agentId(), record.checkpointId(), location, problem, cause);
    }
}
