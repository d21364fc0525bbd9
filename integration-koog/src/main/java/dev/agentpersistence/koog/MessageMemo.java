package dev.agentpersistence.koog;

import dev.agentpersistence.Message;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Remembers the latest message mappings in both directions. Koog hands over the whole history at every checkpoint and
 * reads it back whole, so without this every message would be serialized and parsed once per checkpoint after it.
 * Mapping is a pure function of the message (and, for a message Koog gave no id, its place), so a remembered result is
 * always the one mapping would give again. Bounded: the least recently used entries are dropped.
 */
final class MessageMemo {
    /** Entries kept per direction. */
    static final int CAPACITY = 8192;

    private final Map<Placed, Message> records = lru();
    private final Map<Message, ai.koog.prompt.message.Message> messages = lru();

    /** Our record of the Koog message at {@code index}. */
    synchronized Message record(ai.koog.prompt.message.Message message, int index) {
        return records.computeIfAbsent(new Placed(message, index), placed -> KoogMessages.toRecord(message, index));
    }

    /** The Koog message one of our records holds. */
    synchronized ai.koog.prompt.message.Message message(
            Message record, Function<Message, ai.koog.prompt.message.Message> read) {
        return messages.computeIfAbsent(record, read);
    }

    private static <K, V> Map<K, V> lru() {
        return new LinkedHashMap<>(256, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > CAPACITY;
            }
        };
    }

    /** A Koog message at its place in the history. */
    private record Placed(ai.koog.prompt.message.Message message, int index) {}
}
