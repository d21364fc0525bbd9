package dev.agentpersistence.koog;

import ai.koog.agents.snapshot.feature.AgentCheckpointData;
import ai.koog.agents.snapshot.providers.PersistenceUtils;
import ai.koog.prompt.message.Message;
import ai.koog.serialization.JSONElement;
import ai.koog.serialization.kotlinx.KotlinxJSONElementMappersKt;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.PersistenceException;
import kotlinx.serialization.json.Json;

/**
 * Koog's own serializer (the kotlinx {@code Json} its persistence providers write checkpoints with) bridged to Jackson
 * trees, the form our checkpoints hold JSON in. Every Koog value this module stores goes through here, so what Koog can
 * serialize round-trips exactly.
 */
final class KoogJson {
    private static final Json KOOG = PersistenceUtils.INSTANCE.getDefaultCheckpointJson();
    private static final ObjectMapper JACKSON = new ObjectMapper();

    private KoogJson() {}

    static ObjectNode checkpoint(AgentCheckpointData checkpoint) {
        return object(KOOG.encodeToString(AgentCheckpointData.Companion.serializer(), checkpoint));
    }

    static AgentCheckpointData checkpoint(ObjectNode json) {
        return KOOG.decodeFromString(AgentCheckpointData.Companion.serializer(), json.toString());
    }

    static ObjectNode message(Message message) {
        return object(KOOG.encodeToString(Message.Companion.serializer(), message));
    }

    static Message message(ObjectNode json) {
        return KOOG.decodeFromString(Message.Companion.serializer(), json.toString());
    }

    static JsonNode element(JSONElement element) {
        return tree(KotlinxJSONElementMappersKt.toKotlinxJsonElement(element).toString());
    }

    static JSONElement element(JsonNode json) {
        return KotlinxJSONElementMappersKt.toKoogJSONElement(KOOG.parseToJsonElement(json.toString()));
    }

    static ObjectNode object(String json) {
        return (ObjectNode) tree(json);
    }

    private static JsonNode tree(String json) {
        try {
            return JACKSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new PersistenceException(
                    "Koog's serializer wrote JSON that does not parse: " + e.getOriginalMessage(), e);
        }
    }

    static ObjectMapper jackson() {
        return JACKSON;
    }
}
