package dev.agentpersistence.adk.internal;

import com.google.adk.events.Event;
import com.google.adk.sessions.State;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Message;
import dev.agentpersistence.memory.Conversation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A session as its conversation stores it: the creation record followed by the events in the order they were appended.
 * The session's own state is the initial state with every stored event's state delta applied in order, as
 * {@code InMemorySessionService} applies them (shared {@code app:}/{@code user:} values are merged over it on read).
 *
 * @param createTime when the session was created
 * @param state the session's own state
 * @param events the stored events, oldest first
 */
public record StoredSession(Instant createTime, Map<String, Object> state, List<Event> events) {

    /** Reads the session stored as {@code conversation} (not empty) of agent {@code agentId}. */
    public static StoredSession of(Conversation conversation, String agentId) {
        List<Message> history = conversation.history();
        if (history.isEmpty() || !AdkRecords.SESSION.equals(AdkRecords.kind(history.get(0)))) {
            throw new CorruptCheckpointException(
                    agentId,
                    conversation.checkpoint().map(c -> c.checkpointId()).orElse(null),
                    "message 0",
                    "an ADK session starts with its creation record",
                    null);
        }
        var state = new ConcurrentHashMap<>(AdkRecords.initialState(history.get(0), agentId));
        var events = new ArrayList<Event>();
        for (Message message : history.subList(1, history.size())) {
            if (!AdkRecords.EVENT.equals(AdkRecords.kind(message))) {
                continue;
            }
            Event event = AdkRecords.event(message, agentId);
            if (event.actions() != null && event.actions().stateDelta() != null) {
                event.actions().stateDelta().forEach((key, value) -> {
                    if (value == State.REMOVED) {
                        state.remove(key);
                    } else {
                        state.put(key, value);
                    }
                });
            }
            events.add(event);
        }
        return new StoredSession(AdkRecords.createTime(history.get(0), agentId), state, events);
    }

    /** When the session last changed: the newest event's timestamp, else its creation time. */
    public Instant lastUpdateTime() {
        return events.isEmpty()
                ? createTime
                : Instant.ofEpochMilli(events.get(events.size() - 1).timestamp());
    }
}
