package dev.agentpersistence.adk.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.adk.JsonBaseModel;
import com.google.adk.events.Event;
import com.google.adk.sessions.State;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Message;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The records an ADK service stores as the messages of a conversation: a session's creation record, its events, and the
 * deltas of shared state. Values are JSON written by ADK's own mapper ({@link JsonBaseModel#getMapper()}), so what
 * Jackson can write reads back as JSON types (maps, lists, strings, numbers, booleans). Every record is written with a
 * random message id; records stored before they had one still read.
 */
public final class AdkRecords {
    /** The message metadata key naming the kind of record. */
    public static final String KIND = "adk.record";
    /** The {@link #KIND} of a session's creation record. */
    public static final String SESSION = "session";
    /** The {@link #KIND} of an event. */
    public static final String EVENT = "event";
    /** The {@link #KIND} of a state delta. */
    public static final String DELTA = "delta";
    /** On an event message: the JSON array of the state keys the event removed. */
    public static final String REMOVED = "adk.removed";

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};
    private static final TypeReference<List<String>> KEYS = new TypeReference<>() {};

    private AdkRecords() {}

    /** ADK's mapper. */
    public static ObjectMapper mapper() {
        return JsonBaseModel.getMapper();
    }

    /** A session's creation record: its creation time and initial state ({@code temp:} keys left out). */
    public static Message session(Instant createTime, Map<String, Object> state) {
        ObjectNode node = mapper().createObjectNode();
        node.put("createTime", createTime.toString());
        node.set("state", mapper().valueToTree(withoutTemp(state)));
        return record(Message.Role.SYSTEM, write(node), Map.of(KIND, SESSION));
    }

    /**
     * An event, as stored: {@code temp:} keys leave its state delta, and removals ({@link State#REMOVED}) are listed
     * under {@link #REMOVED}. A {@code user} event is a {@link Message.Role#USER} message, any other an
     * {@link Message.Role#ASSISTANT} one; the content is the event's JSON.
     */
    public static Message event(Event event) {
        var removed = new ArrayList<String>();
        var delta = new LinkedHashMap<String, Object>();
        if (event.actions() != null && event.actions().stateDelta() != null) {
            event.actions().stateDelta().forEach((key, value) -> {
                if (key.startsWith(State.TEMP_PREFIX)) {
                    return;
                }
                if (value == State.REMOVED) {
                    removed.add(key);
                } else {
                    delta.put(key, value);
                }
            });
        }
        ObjectNode node = (ObjectNode) mapper().valueToTree(event);
        if (node.get("actions") instanceof ObjectNode actions) {
            actions.set("stateDelta", mapper().valueToTree(delta));
        }
        var metadata = new LinkedHashMap<String, String>();
        metadata.put(KIND, EVENT);
        if (!removed.isEmpty()) {
            metadata.put(REMOVED, write(mapper().valueToTree(removed)));
        }
        String json = write(node);
        var role = "user".equals(event.author()) ? Message.Role.USER : Message.Role.ASSISTANT;
        return record(role, json, metadata);
    }

    /** A delta of shared state: values set and keys removed. */
    public static Message delta(Map<String, Object> set, List<String> removed) {
        ObjectNode node = mapper().createObjectNode();
        node.set("set", mapper().valueToTree(set));
        node.set("removed", mapper().valueToTree(removed));
        return record(Message.Role.SYSTEM, write(node), Map.of(KIND, DELTA));
    }

    /**
     * A record with an id of its own: a message stored without one gets an id derived from its content on every read of
     * the history, which costs a pass over every message of the session.
     */
    private static Message record(Message.Role role, String json, Map<String, String> metadata) {
        return new Message(Message.newId(), role, json, List.of(), null, metadata);
    }

    /** The kind of a stored record, or {@code ""} for a message this module did not write. */
    public static String kind(Message message) {
        return message.metadata().getOrDefault(KIND, "");
    }

    /** The creation time of a creation record. */
    public static Instant createTime(Message record, String agentId) {
        return Instant.parse(tree(record, agentId).path("createTime").asText());
    }

    /** The initial state of a creation record. */
    public static Map<String, Object> initialState(Message record, String agentId) {
        return mapper().convertValue(tree(record, agentId).path("state"), MAP);
    }

    /** The event an event record holds, with its removals as {@link State#REMOVED} again. */
    public static Event event(Message record, String agentId) {
        Event event;
        try {
            event = Event.fromJson(record.content());
        } catch (RuntimeException e) {
            throw corrupt(agentId, e);
        }
        String removed = record.metadata().get(REMOVED);
        if (removed != null) {
            for (String key : read(removed, KEYS, agentId)) {
                event.actions().stateDelta().put(key, State.REMOVED);
            }
        }
        return event;
    }

    /** Applies a delta record to {@code state}. */
    public static void applyDelta(Message record, Map<String, Object> state, String agentId) {
        var node = tree(record, agentId);
        state.putAll(mapper().convertValue(node.path("set"), MAP));
        for (String key : mapper().convertValue(node.path("removed"), KEYS)) {
            state.remove(key);
        }
    }

    /** A copy of a state read back, nested maps and lists included, that shares nothing with {@code state}. */
    public static Map<String, Object> copyOf(Map<String, Object> state) {
        try {
            return mapper().readValue(mapper().writeValueAsBytes(state), MAP);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("A state read back cannot be copied: " + e.getMessage(), e);
        }
    }

    /** {@code state} without its {@code temp:} keys. */
    public static Map<String, Object> withoutTemp(Map<String, Object> state) {
        var kept = new LinkedHashMap<String, Object>();
        if (state != null) {
            state.forEach((key, value) -> {
                if (!key.startsWith(State.TEMP_PREFIX) && value != State.REMOVED) {
                    kept.put(key, value);
                }
            });
        }
        return kept;
    }

    private static com.fasterxml.jackson.databind.JsonNode tree(Message record, String agentId) {
        try {
            return mapper().readTree(record.content());
        } catch (JsonProcessingException e) {
            throw corrupt(agentId, e);
        }
    }

    private static <T> T read(String json, TypeReference<T> type, String agentId) {
        try {
            return mapper().readValue(json, type);
        } catch (JsonProcessingException e) {
            throw corrupt(agentId, e);
        }
    }

    private static String write(Object node) {
        try {
            return mapper().writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("ADK value cannot be written as JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static CorruptCheckpointException corrupt(String agentId, Exception cause) {
        return new CorruptCheckpointException(agentId, null, "ADK record", cause.getMessage(), cause);
    }
}
