package dev.agentpersistence.storage.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointTooLargeException;
import dev.agentpersistence.ContentPart;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Message;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.codec.CheckpointLocation;
import dev.agentpersistence.codec.JsonCheckpointCodec;
import dev.agentpersistence.history.internal.ReservedMetadata;
import dev.agentpersistence.history.internal.SegmentCodec;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A codec storing large media parts and state values by reference: on encoding, every media part of at least the
 * threshold's bytes, and every state value whose JSON is that large, becomes a {@link BlobReference} (its bytes put
 * into the {@link BlobVault} once the document is known to fit, before the document is stored), marked in the reserved
 * metadata entry {@value #PARTS_KEY} of its message or {@value #STATE_KEY} of the checkpoint; on decoding, the
 * references are resolved and verified, so a checkpoint reads back equal to what was saved.
 *
 * <p><b>Limits.</b> The maximum checkpoint size bounds what one document stores and what reading it fetches: a document
 * is refused when its stored bytes plus the bytes of the distinct blobs it references (each blob counted once, however
 * many parts name it) exceed it, and a reader refuses a document that declares more before fetching a blob. So 20
 * copies of one image count as one image, and a part that could not be stored inline under the limit cannot be stored
 * by reference either. Parts below the threshold stay inline.
 */
public final class BlobCodec implements CheckpointCodec, SegmentCodec.PartsByReference {
    /** The reserved message metadata entry listing, comma-separated, the indices of the parts stored by reference. */
    public static final String PARTS_KEY = ReservedMetadata.PREFIX + "blob-parts";
    /**
     * The reserved checkpoint metadata entry listing, comma-separated and URL-encoded, the state keys whose values are
     * stored by reference (each value's blob is the JSON document of a bare checkpoint holding only that entry).
     */
    public static final String STATE_KEY = ReservedMetadata.PREFIX + "blob-state";

    private static final String STATE_DOCUMENT = "state";

    private final CheckpointCodec inner;
    private final BlobVault vault;
    private final long threshold;
    private final long maxSize;

    /**
     * @param inner the codec writing the documents (with the store's layers)
     * @param threshold the smallest part stored by reference, in bytes, {@code > 0}
     * @param maxSize the maximum checkpoint size
     */
    public BlobCodec(CheckpointCodec inner, BlobVault vault, long threshold, long maxSize) {
        this.inner = Objects.requireNonNull(inner, "inner");
        this.vault = Objects.requireNonNull(vault, "vault");
        if (threshold <= 0) {
            throw new IllegalArgumentException("threshold must be positive but was " + threshold);
        }
        this.threshold = threshold;
        this.maxSize = maxSize;
    }

    @Override
    public byte[] encode(AgentCheckpoint checkpoint) {
        return encode(checkpoint, inner::encode);
    }

    /**
     * As {@link #encode(AgentCheckpoint)}, the document written by {@code writer} (a form of the inner codec, such as
     * the short form of a record whose history is in the log).
     */
    public byte[] encode(AgentCheckpoint checkpoint, Function<AgentCheckpoint, byte[]> writer) {
        var blobs = new LinkedHashMap<BlobReference, byte[]>();
        List<Message> messages = checkpoint.messageHistory();
        var stored = new ArrayList<Message>(messages.size());
        for (Message message : messages) {
            stored.add(byReference(message, blobs));
        }
        var state = new TreeMap<String, JsonNode>(checkpoint.state());
        var stateKeys = new ArrayList<String>();
        if (threshold != Long.MAX_VALUE) {
            for (var entry : checkpoint.state().entrySet()) {
                byte[] document = stateDocument(entry.getKey(), entry.getValue());
                if (document.length >= threshold) {
                    BlobReference reference = BlobReference.of(document);
                    blobs.putIfAbsent(reference, document);
                    state.put(entry.getKey(), TextNode.valueOf(reference.url()));
                    stateKeys.add(URLEncoder.encode(entry.getKey(), StandardCharsets.UTF_8));
                }
            }
        }
        if (blobs.isEmpty()) {
            return writer.apply(checkpoint);
        }
        var builder = checkpoint.toBuilder().messageHistory(stored);
        if (!stateKeys.isEmpty()) {
            var metadata = new TreeMap<>(checkpoint.metadata());
            metadata.put(STATE_KEY, String.join(",", stateKeys));
            builder.state(state).metadata(metadata);
        }
        long referenced = 0;
        for (BlobReference reference : blobs.keySet()) {
            referenced += reference.size();
        }
        byte[] document = writer.apply(builder.build());
        if (document.length + referenced > maxSize) {
            throw new CheckpointTooLargeException(
                    checkpoint.agentId(), checkpoint.checkpointId(), document.length + referenced, maxSize);
        }
        blobs.forEach(vault::put);
        return document;
    }

    @Override
    public AgentCheckpoint decode(byte[] document, CheckpointLocation where) {
        AgentCheckpoint stored = inner.decode(document, where);
        List<Message> messages = stored.messageHistory();
        var references = new LinkedHashMap<String, BlobReference>();
        long declared = document.length + collect(messages, where, references);
        Map<String, BlobReference> stateReferences = stateReferences(stored, where);
        for (BlobReference reference : stateReferences.values()) {
            if (references.putIfAbsent(reference.sha256(), reference) == null) {
                declared += reference.size();
            }
        }
        if (references.isEmpty()) {
            return stored;
        }
        if (declared > maxSize) {
            throw corrupt(
                    where,
                    "the document and the parts it holds by reference declare " + declared
                            + " bytes, more than the maximum checkpoint size of " + maxSize + " bytes",
                    null);
        }
        Map<String, byte[]> bytes = vault.get(references.values(), where);
        var result = stored.toBuilder().messageHistory(resolved(messages, bytes, where));
        if (!stateReferences.isEmpty()) {
            var state = new TreeMap<String, JsonNode>(stored.state());
            stateReferences.forEach((key, reference) ->
                    state.put(key, stateValue(key, bytes.get(reference.sha256()), reference, where)));
            var metadata = new TreeMap<>(stored.metadata());
            metadata.remove(STATE_KEY);
            result.state(state).metadata(metadata);
        }
        return result.build();
    }

    @Override
    public boolean storesByReference(List<Message> messages) {
        if (threshold == Long.MAX_VALUE) {
            return false;
        }
        for (Message message : messages) {
            for (ContentPart part : message.parts()) {
                if (part instanceof ContentPart.Media media && media.size() >= threshold) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public List<Message> resolve(List<Message> stored, CheckpointLocation where) {
        var references = new LinkedHashMap<String, BlobReference>();
        long declared = collect(stored, where, references);
        if (references.isEmpty()) {
            return stored;
        }
        if (declared > maxSize) {
            throw corrupt(
                    where,
                    "the messages hold parts by reference of " + declared
                            + " bytes, more than the maximum checkpoint size of " + maxSize + " bytes",
                    null);
        }
        return resolved(stored, vault.get(references.values(), where), where);
    }

    /**
     * Adds the references the messages hold to {@code references} (by hash, first one kept); returns the bytes of the
     * blobs it added, each counted once.
     */
    private static long collect(
            List<Message> messages, CheckpointLocation where, Map<String, BlobReference> references) {
        long declared = 0;
        for (Message message : messages) {
            for (int index : indices(message, where)) {
                BlobReference reference = reference(message, index, where);
                if (references.putIfAbsent(reference.sha256(), reference) == null) {
                    declared += reference.size();
                }
            }
        }
        return declared;
    }

    private static List<Message> resolved(List<Message> messages, Map<String, byte[]> bytes, CheckpointLocation where) {
        return messages.stream().map(message -> resolved(message, bytes, where)).toList();
    }

    /** The references a stored checkpoint document holds: its messages' parts and its state values. */
    public static List<BlobReference> references(AgentCheckpoint stored, CheckpointLocation where) {
        var references = new ArrayList<>(references(stored.messageHistory(), where));
        references.addAll(stateReferences(stored, where).values());
        return references;
    }

    /** The bytes a state value is stored as by reference: the JSON document of a bare checkpoint holding it alone. */
    private static byte[] stateDocument(String key, JsonNode value) {
        return JsonCheckpointCodec.instance()
                .encode(AgentCheckpoint.builder()
                        .checkpointId(STATE_DOCUMENT)
                        .agentId(STATE_DOCUMENT)
                        .version(0)
                        .createdAt(Instant.EPOCH)
                        .state(Map.of(key, value))
                        .build());
    }

    private static JsonNode stateValue(String key, byte[] bytes, BlobReference reference, CheckpointLocation where) {
        try {
            var document = JsonCheckpointCodec.instance()
                    .decode(bytes, new CheckpointLocation(STATE_DOCUMENT, STATE_DOCUMENT, where.description()));
            JsonNode value = document.state().get(key);
            if (value != null && document.state().size() == 1) {
                return value;
            }
        } catch (CorruptCheckpointException e) {
            throw corrupt(where, "blob '" + reference.blobId() + "' of state key '" + key + "' is unreadable", e);
        }
        throw corrupt(where, "blob '" + reference.blobId() + "' does not hold state key '" + key + "'", null);
    }

    /** The state values {@value #STATE_KEY} names, by key, in the order stored. */
    private static Map<String, BlobReference> stateReferences(AgentCheckpoint stored, CheckpointLocation where) {
        String listed = stored.metadata().get(STATE_KEY);
        if (listed == null) {
            return Map.of();
        }
        var references = new LinkedHashMap<String, BlobReference>();
        for (String encoded : listed.split(",", -1)) {
            String key = URLDecoder.decode(encoded, StandardCharsets.UTF_8);
            JsonNode value = stored.state().get(key);
            var reference = value != null && value.isTextual()
                    ? BlobReference.parse(value.textValue())
                    : java.util.Optional.<BlobReference>empty();
            if (reference.isEmpty()) {
                throw corrupt(
                        where, "state key '" + key + "' is listed by reference but holds no blob reference", null);
            }
            references.put(key, reference.get());
        }
        return references;
    }

    /** The references the stored messages hold (parts listed in {@value #PARTS_KEY}). */
    public static List<BlobReference> references(List<Message> storedMessages, CheckpointLocation where) {
        var references = new ArrayList<BlobReference>();
        for (Message message : storedMessages) {
            for (int index : indices(message, where)) {
                references.add(reference(message, index, where));
            }
        }
        return references;
    }

    private Message byReference(Message message, Map<BlobReference, byte[]> blobs) {
        List<ContentPart> parts = message.parts();
        List<ContentPart> stored = null;
        var indices = new StringBuilder();
        for (int i = 0; i < parts.size(); i++) {
            if (parts.get(i) instanceof ContentPart.Media media && media.size() >= threshold) {
                byte[] data = media.data();
                BlobReference reference = BlobReference.of(data);
                blobs.putIfAbsent(reference, data);
                if (stored == null) {
                    stored = new ArrayList<>(parts);
                }
                ContentPart.Media byReference = ContentPart.url(media.kind(), reference.url(), media.mimeType());
                stored.set(i, media.name() == null ? byReference : byReference.withName(media.name()));
                indices.append(indices.length() == 0 ? "" : ",").append(i);
            }
        }
        if (stored == null) {
            return message;
        }
        return message.withParts(stored).withMetadata(PARTS_KEY, indices.toString());
    }

    private static Message resolved(Message message, Map<String, byte[]> bytes, CheckpointLocation where) {
        List<Integer> indices = indices(message, where);
        if (indices.isEmpty()) {
            return message;
        }
        var parts = new ArrayList<>(message.parts());
        for (int index : indices) {
            var media = (ContentPart.Media) parts.get(index);
            byte[] data = bytes.get(reference(message, index, where).sha256());
            parts.set(index, new ContentPart.Media(media.kind(), media.mimeType(), null, data, media.name()));
        }
        var metadata = new TreeMap<>(message.metadata());
        metadata.remove(PARTS_KEY);
        return new Message(message.id(), message.role(), message.content(), parts, message.toolCall(), metadata);
    }

    /** The indices {@value #PARTS_KEY} lists, ascending and distinct; none without the entry. */
    private static List<Integer> indices(Message message, CheckpointLocation where) {
        String listed = message.metadata().get(PARTS_KEY);
        if (listed == null) {
            return List.of();
        }
        var indices = new ArrayList<Integer>();
        for (String one : listed.split(",", -1)) {
            int index;
            try {
                index = Integer.parseInt(one);
            } catch (NumberFormatException e) {
                throw corrupt(where, "message '" + message.id() + "' lists the part '" + one + "' by reference", e);
            }
            if (index < 0
                    || index >= message.parts().size()
                    || (!indices.isEmpty() && index <= indices.get(indices.size() - 1))) {
                throw corrupt(
                        where, "message '" + message.id() + "' lists the parts " + listed + " by reference", null);
            }
            indices.add(index);
        }
        return indices;
    }

    private static BlobReference reference(Message message, int index, CheckpointLocation where) {
        if (message.parts().get(index) instanceof ContentPart.Media media) {
            var reference = BlobReference.parse(media.url());
            if (reference.isPresent()) {
                return reference.get();
            }
        }
        throw corrupt(where, "part " + index + " of message '" + message.id() + "' is not a blob reference", null);
    }

    private static CorruptCheckpointException corrupt(CheckpointLocation where, String problem, Throwable cause) {
        if (where == null) {
            throw new IllegalStateException(problem, cause);
        }
        return new CorruptCheckpointException(
                where.agentId(), where.checkpointId(), where.description(), problem, cause);
    }
}
