package dev.agentpersistence.adk;

import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Events for the scenarios. */
final class AdkEvents {
    private AdkEvents() {}

    static Event text(String author, String text, long timestamp) {
        return Event.builder()
                .id(Event.generateEventId())
                .invocationId("invocation-1")
                .author(author)
                .content(Content.builder()
                        .role(author.equals("user") ? "user" : "model")
                        .parts(Part.fromText(text))
                        .build())
                .timestamp(timestamp)
                .build();
    }

    static Event withDelta(Map<String, Object> delta, long timestamp) {
        return Event.builder()
                .id(Event.generateEventId())
                .invocationId("invocation-1")
                .author("agent")
                .actions(EventActions.builder()
                        .stateDelta(new ConcurrentHashMap<>(delta))
                        .build())
                .timestamp(timestamp)
                .build();
    }

    static Event withDelta(String author, String text, Map<String, Object> delta, long timestamp) {
        return Event.builder()
                .id(Event.generateEventId())
                .invocationId("invocation-1")
                .author(author)
                .content(Content.builder()
                        .role("model")
                        .parts(Part.fromText(text))
                        .build())
                .actions(EventActions.builder()
                        .stateDelta(new ConcurrentHashMap<>(delta))
                        .build())
                .timestamp(timestamp)
                .build();
    }
}
