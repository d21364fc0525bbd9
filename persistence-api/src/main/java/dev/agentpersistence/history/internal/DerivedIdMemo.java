package dev.agentpersistence.history.internal;

import dev.agentpersistence.Message;
import java.util.List;
import java.util.function.Supplier;

/**
 * The ids derived on reading for the messages of a cached history that were stored without one, computed once per
 * message. Deterministic, so a race computes the same id twice at worst.
 */
public final class DerivedIdMemo {
    private final List<Message> messages;
    private final String[] ids;
    private final int count;

    /** A memo for {@code messages}, the cache's own objects. */
    DerivedIdMemo(List<Message> messages) {
        this(messages, new String[messages.size()], messages.size());
    }

    /**
     * A memo for the first {@code count} of {@code messages}, keeping the id derived for a message in the slot of
     * {@code ids} with the same index, which memos of logs sharing these slots share.
     */
    DerivedIdMemo(List<Message> messages, String[] ids, int count) {
        this.messages = messages;
        this.ids = ids;
        this.count = count;
    }

    /**
     * Takes over the ids {@code previous} derived for the first {@code shared} messages, where it holds the same
     * objects.
     */
    void inherit(DerivedIdMemo previous, int shared) {
        int limit = Math.min(shared, Math.min(previous.count, count));
        for (int i = 0; i < limit; i++) {
            if (messages.get(i) == previous.messages.get(i)) {
                ids[i] = previous.ids[i];
            }
        }
    }

    /**
     * The id derived for {@code message} at {@code index}, computed by {@code derive} once, or {@code null} when the
     * memo does not hold {@code message} (the very object) at {@code index}.
     */
    String derivedId(int index, Message message, Supplier<String> derive) {
        if (index >= count || messages.get(index) != message) {
            return null;
        }
        String id = ids[index];
        if (id == null) {
            id = derive.get();
            ids[index] = id;
        }
        return id;
    }
}
