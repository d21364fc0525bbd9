package dev.agentpersistence.pipeline.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.pipeline.AnswerSchema;
import dev.agentpersistence.pipeline.InputRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How waits are kept in a run's checkpoints: a waiting checkpoint carries the open {@link InputRequest} as metadata
 * {@value #WAITING_KEY}; the answers given so far to the questions of the next node are metadata {@value #ANSWERS_KEY}
 * (a JSON object, request id → answer).
 */
public final class RunWaits {
    /** Metadata key of a waiting checkpoint: the open request as JSON. */
    public static final String WAITING_KEY = "pipeline.waiting";
    /** Metadata key: the answers given to the next node's questions, as a JSON object. */
    public static final String ANSWERS_KEY = "pipeline.answers";

    private static final ObjectMapper JSON = new ObjectMapper();

    private RunWaits() {}

    /** The request a checkpoint of run {@code runId} waits on. */
    public static Optional<InputRequest> waiting(AgentCheckpoint checkpoint, String runId) {
        String text = checkpoint.metadata().get(WAITING_KEY);
        if (text == null) {
            return Optional.empty();
        }
        JsonNode json = parse(text, checkpoint);
        try {
            var problems = new ArrayList<String>();
            json.path("problems").forEach(p -> problems.add(p.asText()));
            return Optional.of(new InputRequest(
                    runId,
                    json.path("node").asText(),
                    json.path("requestId").asText(),
                    json.path("question").asText(),
                    AnswerSchema.fromJson(json.path("schema")),
                    Instant.parse(json.path("since").asText()),
                    problems));
        } catch (RuntimeException e) {
            throw unreadable(checkpoint, "a wait that is not a question (" + e.getMessage() + ")", e);
        }
    }

    /** The answers a checkpoint carries for the next node. */
    public static Map<String, JsonNode> answers(AgentCheckpoint checkpoint) {
        String text = checkpoint.metadata().get(ANSWERS_KEY);
        var answers = new LinkedHashMap<String, JsonNode>();
        if (text != null) {
            parse(text, checkpoint).fields().forEachRemaining(e -> answers.put(e.getKey(), e.getValue()));
        }
        return answers;
    }

    public static String encode(InputRequest request) {
        ObjectNode json = JSON.createObjectNode()
                .put("node", request.node())
                .put("requestId", request.requestId())
                .put("question", request.question())
                .put("since", request.since().toString());
        json.set("schema", request.schema().toJson());
        var problems = json.putArray("problems");
        request.problems().forEach(problems::add);
        return json.toString();
    }

    public static String encode(Map<String, JsonNode> answers) {
        ObjectNode json = JSON.createObjectNode();
        answers.forEach(json::set);
        return json.toString();
    }

    private static JsonNode parse(String text, AgentCheckpoint checkpoint) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw unreadable(checkpoint, "unreadable JSON (" + e.getOriginalMessage() + ")", e);
        }
    }

    private static CorruptCheckpointException unreadable(AgentCheckpoint checkpoint, String problem, Exception e) {
        return new CorruptCheckpointException(
                checkpoint.agentId(),
                checkpoint.checkpointId(),
                "the wait metadata of version " + checkpoint.version(),
                "it holds " + problem,
                e);
    }
}
