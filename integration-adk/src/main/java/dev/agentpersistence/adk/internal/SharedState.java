package dev.agentpersistence.adk.internal;

import com.google.adk.sessions.State;
import dev.agentpersistence.Message;
import dev.agentpersistence.memory.ConversationStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The state an app's sessions share ({@code app:} keys) and the state a user's sessions share ({@code user:} keys),
 * each kept as a conversation of deltas: a change appends one delta, a read applies them all in order. Concurrent
 * changes from anywhere all land (the conversation store applies a change that lost a race again on the new head), the
 * later one winning per key.
 */
public final class SharedState {
    private final ConversationStore conversations;

    public SharedState(ConversationStore conversations) {
        this.conversations = Objects.requireNonNull(conversations, "conversations");
    }

    /** The shared state of {@code app}, keys without their prefix. */
    public Map<String, Object> app(String app) {
        return read(AdkIds.appStateConversation(app));
    }

    /** The shared state of {@code user} in {@code app}, keys without their prefix. */
    public Map<String, Object> user(String app, String user) {
        return read(AdkIds.userStateConversation(app, user));
    }

    /** Adds the current shared state of the app and the user to {@code state}, with the keys' prefixes. */
    public void mergeInto(Map<String, Object> state, String app, String user) {
        app(app).forEach((key, value) -> state.put(State.APP_PREFIX + key, value));
        user(app, user).forEach((key, value) -> state.put(State.USER_PREFIX + key, value));
    }

    /** Stores the {@code app:} and {@code user:} entries of an event's state delta, one delta record for each scope. */
    public void apply(String app, String user, Map<String, Object> stateDelta) {
        if (stateDelta == null || stateDelta.isEmpty()) {
            return;
        }
        store(AdkIds.appStateConversation(app), stateDelta, State.APP_PREFIX);
        store(AdkIds.userStateConversation(app, user), stateDelta, State.USER_PREFIX);
    }

    private void store(String conversationId, Map<String, Object> stateDelta, String prefix) {
        var set = new LinkedHashMap<String, Object>();
        List<String> removed = new ArrayList<>();
        stateDelta.forEach((key, value) -> {
            if (key.startsWith(prefix)) {
                String bare = key.substring(prefix.length());
                if (value == State.REMOVED) {
                    removed.add(bare);
                } else {
                    set.put(bare, value);
                }
            }
        });
        if (!set.isEmpty() || !removed.isEmpty()) {
            conversations.append(conversationId, AdkRecords.delta(set, removed));
        }
    }

    private Map<String, Object> read(String conversationId) {
        var state = new LinkedHashMap<String, Object>();
        String agentId = conversations.agentId(conversationId);
        for (Message record : conversations.load(conversationId).history()) {
            if (AdkRecords.DELTA.equals(AdkRecords.kind(record))) {
                AdkRecords.applyDelta(record, state, agentId);
            }
        }
        return state;
    }
}
