package dev.agentpersistence.langgraph4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CorruptCheckpointException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.bsc.langgraph4j.serializer.StateSerializer;

/**
 * The state of one checkpoint as stored. A JSON-mappable value ({@link StateValues}) is stored as JSON; any other value
 * is written by the graph's {@link StateSerializer} as a one-entry state map and stored as Base64 text, with its key
 * listed in metadata {@value AgentPersistenceSaver#SERIALIZED_KEYS} (a JSON array) and the serializer's class in
 * {@value AgentPersistenceSaver#SERIALIZER}. The serialized bytes are part of the checkpoint's state, so the store's
 * size limits and encryption apply to them as to everything else.
 */
final class StateEncoding {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The state values by key, and the keys whose values went through the serializer, sorted (empty when none). */
    record Encoded(Map<String, JsonNode> values, List<String> serializedKeys) {}

    private final StateSerializer<?> serializer;

    /** {@code serializer} null: JSON only, a value that is not JSON-mappable is refused. */
    StateEncoding(StateSerializer<?> serializer) {
        this.serializer = serializer;
    }

    /**
     * The state as stored.
     *
     * @throws UnsupportedStateValueException when a value is neither JSON-mappable nor written by the serializer
     */
    Encoded encode(Map<String, Object> state) {
        var values = new TreeMap<String, JsonNode>();
        var serialized = new ArrayList<String>();
        for (var entry : state.entrySet()) {
            String key = entry.getKey();
            try {
                values.put(key, StateValues.toJson(key, entry.getValue()));
            } catch (UnsupportedStateValueException notJson) {
                if (serializer == null) {
                    throw notJson;
                }
                values.put(key, TextNode.valueOf(Base64.getEncoder().encodeToString(write(notJson, entry.getValue()))));
                serialized.add(key);
            }
        }
        serialized.sort(null);
        return new Encoded(values, List.copyOf(serialized));
    }

    /** The metadata value listing {@code keys}. */
    static String keysMetadata(List<String> keys) {
        ArrayNode array = JsonNodeFactory.instance.arrayNode(keys.size());
        keys.forEach(array::add);
        return array.toString();
    }

    /** The class name recorded as the writer of serialized values. */
    String serializerName() {
        return serializer.getClass().getName();
    }

    /**
     * LangGraph4j's state of {@code stored}, whose state values (the message list put back, if any) are {@code values}.
     *
     * @throws UnreadableStateValueException when a serialized value cannot be read by this saver's serializer
     * @throws CorruptCheckpointException when the list of serialized keys or a serialized value is malformed
     */
    Map<String, Object> decode(AgentCheckpoint stored, Map<String, JsonNode> values) {
        Set<String> serialized = serializedKeys(stored);
        var state = new LinkedHashMap<String, Object>();
        for (var entry : values.entrySet()) {
            String key = entry.getKey();
            state.put(
                    key,
                    serialized.contains(key)
                            ? read(stored, key, entry.getValue())
                            : StateValues.fromJson(entry.getValue()));
        }
        return state;
    }

    private byte[] write(UnsupportedStateValueException notJson, Object value) {
        var single = new HashMap<String, Object>();
        single.put(notJson.key(), value);
        try {
            return serializer.dataToBytes(single);
        } catch (IOException | RuntimeException e) {
            throw UnsupportedStateValueException.notSerializable(notJson, serializerName(), e);
        }
    }

    private Object read(AgentCheckpoint stored, String key, JsonNode value) {
        String writer = stored.metadata().getOrDefault(AgentPersistenceSaver.SERIALIZER, "an unknown serializer");
        if (serializer == null) {
            throw new UnreadableStateValueException(
                    stored.agentId(),
                    stored.checkpointId(),
                    key,
                    "it was written by the state serializer " + writer + " and this saver stores JSON only",
                    null);
        }
        byte[] bytes;
        try {
            if (!value.isTextual()) {
                throw new IllegalArgumentException("not Base64 text but " + value.getNodeType());
            }
            bytes = Base64.getDecoder().decode(value.textValue());
        } catch (IllegalArgumentException e) {
            throw new CorruptCheckpointException(
                    stored.agentId(), stored.checkpointId(), "state." + key, "a serialized value is " + e, e);
        }
        try {
            Map<String, Object> single = serializer.dataFromBytes(bytes);
            if (!single.containsKey(key)) {
                throw new IOException("the serializer read no value for the key");
            }
            return single.get(key);
        } catch (IOException | ClassNotFoundException | RuntimeException e) {
            throw new UnreadableStateValueException(
                    stored.agentId(),
                    stored.checkpointId(),
                    key,
                    "it was written by the state serializer " + writer + " and " + serializerName()
                            + " cannot read it (" + e + "); give the saver the graph's own state serializer",
                    e);
        }
    }

    private static Set<String> serializedKeys(AgentCheckpoint stored) {
        String listed = stored.metadata().get(AgentPersistenceSaver.SERIALIZED_KEYS);
        var keys = new LinkedHashSet<String>();
        if (listed == null) {
            return keys;
        }
        try {
            JsonNode array = JSON.readTree(listed);
            if (!array.isArray()) {
                throw new IOException("not a JSON array");
            }
            for (JsonNode key : array) {
                if (!key.isTextual()) {
                    throw new IOException("an element is not a string");
                }
                keys.add(key.textValue());
            }
        } catch (IOException e) {
            throw new CorruptCheckpointException(
                    stored.agentId(),
                    stored.checkpointId(),
                    "metadata " + AgentPersistenceSaver.SERIALIZED_KEYS,
                    "the list of serialized keys is malformed: " + e.getMessage(),
                    e);
        }
        return keys;
    }
}
