package dev.agentpersistence.history.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.codec.JsonCheckpointCodec;
import dev.agentpersistence.internal.LegacyMessageIds;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Gives each message of a read history that was stored without an id the id {@link LegacyMessageIds#of(int, byte[])}
 * derives from its position in the whole history and its content, so every read of the same history gives the same ids,
 * two equal messages at different positions get different ids, and an edited message gets a new one. A derived id is
 * not part of the message's identity ({@link Message#hasDerivedId()}) and is never stored.
 */
final class DerivedMessageIds {
    private static final JsonFactory JSON = new JsonFactory();

    private DerivedMessageIds() {}

    /** {@code checkpoint} itself when every message has an id, else a copy whose messages all have one. */
    static AgentCheckpoint assign(AgentCheckpoint checkpoint) {
        return assign(checkpoint, null);
    }

    /**
     * As {@link #assign(AgentCheckpoint)}, taking the ids of messages {@code known} holds from it (computed there once
     * per message instead of on every read).
     */
    static AgentCheckpoint assign(AgentCheckpoint checkpoint, DerivedIdMemo known) {
        List<Message> history = checkpoint.messageHistory();
        int first = firstWithoutId(history);
        if (first < 0) {
            return checkpoint;
        }
        var withIds = new ArrayList<Message>(history.size());
        var buffer = new ByteArrayOutputStream(256);
        for (int i = 0; i < history.size(); i++) {
            Message message = history.get(i);
            if (i < first || message.id() != null) {
                withIds.add(message);
                continue;
            }
            int index = i;
            String id = known == null ? null : known.derivedId(i, message, () -> derive(message, index, buffer));
            withIds.add(message.withId(id != null ? id : derive(message, i, buffer)));
        }
        return checkpoint.toBuilder().messageHistory(withIds).build();
    }

    private static int firstWithoutId(List<Message> history) {
        for (int i = 0; i < history.size(); i++) {
            if (history.get(i).id() == null) {
                return i;
            }
        }
        return -1;
    }

    private static String derive(Message message, int index, ByteArrayOutputStream buffer) {
        buffer.reset();
        try (JsonGenerator g = JSON.createGenerator(buffer)) {
            JsonCheckpointCodec.writeMessage(g, message, false);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return LegacyMessageIds.of(index, buffer.toByteArray());
    }
}
