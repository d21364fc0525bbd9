package dev.agentpersistence.adk.internal;

import com.google.adk.sessions.State;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.memory.Conversation;
import dev.agentpersistence.memory.ConversationStore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The state an app's sessions share ({@code app:} keys) and the state a user's sessions share ({@code user:} keys),
 * each kept as a conversation of deltas: a change appends one delta, a read applies them all in order. Concurrent
 * changes from anywhere all land (the conversation store applies a change that lost a race again on the new head), the
 * later one winning per key.
 *
 * <p>A read reads the head of the conversation; the state folded from the head this object last read or wrote is
 * remembered (for at most {@value #REMEMBERED} conversations, least recently used forgotten first), so a read folds
 * only the deltas stored since, and none when the head is unchanged. Thread-safe.
 */
public final class SharedState {
    /** How many conversations' folded states are remembered. */
    public static final int REMEMBERED = 1024;

    private final ConversationStore conversations;
    private final Map<String, Folded> folded = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Folded> eldest) {
            return size() > REMEMBERED;
        }
    };

    public SharedState(ConversationStore conversations) {
        this.conversations = Objects.requireNonNull(conversations, "conversations");
    }

    /** The shared state of {@code app}, keys without their prefix: a copy of its own, values included. */
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
            fold(conversations.append(conversationId, AdkRecords.delta(set, removed)));
        }
    }

    private Map<String, Object> read(String conversationId) {
        return AdkRecords.copyOf(fold(conversations.load(conversationId)).state());
    }

    /**
     * The state {@code conversation} holds: the remembered one when it is the remembered head, else the remembered one
     * with the deltas stored after it when the history extends it, else every delta folded.
     */
    private Folded fold(Conversation conversation) {
        String id = conversation.conversationId();
        Folded known;
        synchronized (folded) {
            known = folded.get(id);
        }
        String head =
                conversation.checkpoint().map(AgentCheckpoint::checkpointId).orElse(null);
        if (head == null) {
            return Folded.NONE;
        }
        if (known != null && known.head().equals(head)) {
            return known;
        }
        List<Message> history = conversation.history();
        boolean extendsKnown = known != null
                && known.size() <= history.size()
                && known.size() > 0
                && known.lastId() != null
                && known.lastId().equals(history.get(known.size() - 1).id());
        var state = extendsKnown ? new LinkedHashMap<>(known.state()) : new LinkedHashMap<String, Object>();
        String agentId = conversations.agentId(id);
        for (Message record : history.subList(extendsKnown ? known.size() : 0, history.size())) {
            if (AdkRecords.DELTA.equals(AdkRecords.kind(record))) {
                AdkRecords.applyDelta(record, state, agentId);
            }
        }
        String lastId =
                history.isEmpty() ? null : history.get(history.size() - 1).id();
        var result = new Folded(head, history.size(), lastId, Collections.unmodifiableMap(state));
        synchronized (folded) {
            folded.put(id, result);
        }
        return result;
    }

    /**
     * The state folded from a head.
     *
     * @param head the head's checkpoint id
     * @param size how many messages its history holds
     * @param lastId the id of the last of them ({@code null} for records stored without one, which are folded again)
     * @param state the state, not to be changed
     */
    private record Folded(String head, int size, String lastId, Map<String, Object> state) {
        static final Folded NONE = new Folded("", 0, null, Map.of());
    }
}
