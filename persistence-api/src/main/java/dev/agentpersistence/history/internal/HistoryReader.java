package dev.agentpersistence.history.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Message;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.internal.Isolation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Turns stored checkpoints back into complete ones: fetches the segments of every checkpoint of one read in a single
 * {@link HistorySegmentStore#getSegments} call (each distinct segment once), decodes each once, checks every segment
 * against the hash chain value in its id and every history against its digest, and strips the descriptor from the
 * metadata. Checkpoints without a descriptor are returned as stored.
 */
public final class HistoryReader {
    private static final HexFormat HEX = HexFormat.of();

    private final HistorySegmentStore store;
    private final ChainCache cache;
    private final SegmentCodec codec;
    private final ChainHasher hasher;
    private final String descriptorKey;
    private final String storeName;

    /**
     * @param descriptorKey the reserved metadata key holding the {@link HistoryDescriptor}
     * @param cache the histories this process saved or read last; segments it holds are not fetched
     * @param storeName how messages name the storage
     */
    public HistoryReader(
            HistorySegmentStore store,
            ChainCache cache,
            SegmentCodec codec,
            ChainHasher hasher,
            String descriptorKey,
            String storeName) {
        this.store = Objects.requireNonNull(store, "store");
        this.cache = Objects.requireNonNull(cache, "cache");
        this.codec = Objects.requireNonNull(codec, "codec");
        this.hasher = Objects.requireNonNull(hasher, "hasher");
        this.descriptorKey = Objects.requireNonNull(descriptorKey, "descriptorKey");
        this.storeName = Objects.requireNonNull(storeName, "storeName");
    }

    /**
     * A complete checkpoint and where its history came from: for tiered segments the block size and the hash chain over
     * its blocks, for the message log its path; {@code null} where it did not come from there.
     */
    public record Assembled(AgentCheckpoint checkpoint, int blockSize, byte[][] chain, LogPath log) {
        Assembled(AgentCheckpoint checkpoint, int blockSize, byte[][] chain) {
            this(checkpoint, blockSize, chain, null);
        }
    }

    /** The complete forms of {@code stored}, all checkpoints of {@code agentId}, in the same order. */
    public List<Assembled> assemble(String agentId, List<AgentCheckpoint> stored) {
        var references = new ArrayList<HistoryReference>(stored.size());
        var ids = new LinkedHashSet<String>();
        KnownHistory known = cache.get(agentId);
        KnownLog knownLog = cache.log(agentId);
        LogReading log = null;
        var routes = new ArrayList<LogReading.Route>();
        for (AgentCheckpoint checkpoint : stored) {
            HistoryReference reference = descriptor(checkpoint);
            references.add(reference);
            if (reference instanceof HistoryDescriptor descriptor) {
                for (SegmentId segment : descriptor.segments()) {
                    if (known == null || !known.holds(segment, descriptor.blockSize())) {
                        ids.add(segment.text());
                    }
                }
            } else if (reference instanceof LogDescriptor descriptor) {
                if (log == null) {
                    log = new LogReading(agentId, store, codec, hasher, descriptorKey, storeName, knownLog);
                }
                routes.add(log.route(checkpoint, descriptor));
            }
        }
        Map<String, byte[]> fetched = ids.isEmpty() ? Map.of() : store.getSegments(agentId, ids);
        if (log != null) {
            log.fetch(routes);
        }
        var read = new Reading(agentId, fetched, known);
        var result = new ArrayList<Assembled>(stored.size());
        int route = 0;
        for (int i = 0; i < stored.size(); i++) {
            AgentCheckpoint checkpoint = stored.get(i);
            HistoryReference reference = references.get(i);
            Assembled assembled;
            DerivedIdMemo memo = null;
            if (reference instanceof HistoryDescriptor descriptor) {
                assembled = read.assemble(checkpoint, descriptor);
                memo = known == null ? null : known.derivedIds();
            } else if (reference instanceof LogDescriptor descriptor) {
                assembled = log.assemble(checkpoint, descriptor, routes.get(route++));
                memo = knownLog == null ? null : knownLog.derivedIds();
            } else {
                assembled = new Assembled(checkpoint, 0, null);
            }
            result.add(new Assembled(
                    DerivedMessageIds.assign(assembled.checkpoint(), memo),
                    assembled.blockSize(),
                    assembled.chain(),
                    assembled.log()));
        }
        return result;
    }

    /** {@code stored} with its whole {@code history} and without the descriptor entry {@code descriptorKey}. */
    static AgentCheckpoint complete(AgentCheckpoint stored, List<Message> history, String descriptorKey) {
        var metadata = new TreeMap<>(stored.metadata());
        metadata.remove(descriptorKey);
        return stored.toBuilder().messageHistory(history).metadata(metadata).build();
    }

    /** The descriptor of a stored checkpoint, or {@code null} when its whole history is inline. */
    public HistoryReference descriptor(AgentCheckpoint stored) {
        String text = stored.metadata().get(descriptorKey);
        if (text == null) {
            return null;
        }
        try {
            return HistoryReference.parse(text);
        } catch (IllegalArgumentException e) {
            throw new CorruptCheckpointException(
                    stored.agentId(),
                    stored.checkpointId(),
                    "metadata entry '" + descriptorKey + "' in " + storeName,
                    e.getMessage(),
                    e);
        }
    }

    /**
     * Decoded and verified segments of one read, shared by its checkpoints. A segment the cache holds (its id's chain
     * value equals the cache's at the same block) is taken from the cache, isolated, and needs no check: the chain
     * value names its content.
     */
    private final class Reading {
        private final String agentId;
        private final Map<String, byte[]> fetched;
        private final KnownHistory known;
        private final Map<String, List<Message>> decoded = new HashMap<>();
        /** "c(from) hex/segment id" → chain values at the segment's block ends. */
        private final Map<String, byte[][]> verified = new HashMap<>();

        Reading(String agentId, Map<String, byte[]> fetched, KnownHistory known) {
            this.agentId = agentId;
            this.fetched = fetched;
            this.known = known;
        }

        Assembled assemble(AgentCheckpoint stored, HistoryDescriptor descriptor) {
            List<Message> tail = stored.messageHistory();
            int blockSize = descriptor.blockSize();
            int end = descriptor.segmentsEnd();
            if (end + tail.size() != descriptor.size()) {
                throw corrupt(
                        stored,
                        "metadata entry '" + descriptorKey + "' in " + storeName,
                        "the descriptor counts "
                                + descriptor.size() + " messages but the segments hold " + end + " and the checkpoint "
                                + tail.size());
            }
            long plausible = tail.size();
            for (SegmentId segment : descriptor.segments()) {
                // a cached segment's messages exist; a fetched one is decoded to count them
                plausible += known != null && known.holds(segment, blockSize)
                        ? segment.span().to() - segment.span().from()
                        : messages(stored, segment).size();
            }
            if (descriptor.size() > plausible) {
                throw corrupt(
                        stored,
                        "metadata entry '" + descriptorKey + "' in " + storeName,
                        "the descriptor claims "
                                + descriptor.size()
                                + " messages but its segments and the checkpoint cannot hold more than "
                                + plausible);
            }
            var history = new ArrayList<Message>(descriptor.size());
            byte[][] chain = new byte[end / blockSize + 1][];
            chain[0] = ChainHasher.origin();
            for (SegmentId segment : descriptor.segments()) {
                int from = segment.span().from() / blockSize;
                if (known != null && known.holds(segment, blockSize)) {
                    for (int k = from + 1; k <= segment.span().to() / blockSize; k++) {
                        chain[k] = known.chain(k);
                    }
                    for (Message message :
                            known.messages(segment.span().from(), segment.span().to())) {
                        history.add(Isolation.copy(message));
                    }
                    continue;
                }
                List<Message> messages = messages(stored, segment);
                byte[][] values = verify(stored, segment, chain[from], messages, blockSize);
                System.arraycopy(values, 0, chain, from + 1, values.length);
                history.addAll(messages);
            }
            String digest = HEX.formatHex(hasher.digest(chain[chain.length - 1], tail, descriptor.size()));
            if (!digest.equals(descriptor.digest())) {
                throw corrupt(
                        stored,
                        "checkpoint document in " + storeName,
                        "the messages kept in the checkpoint do not match the history digest of its descriptor");
            }
            history.addAll(tail);
            return new Assembled(complete(stored, history, descriptorKey), blockSize, chain);
        }

        private List<Message> messages(AgentCheckpoint stored, SegmentId segment) {
            String id = segment.text();
            List<Message> messages = decoded.get(id);
            if (messages != null) {
                return messages;
            }
            byte[] bytes = fetched.get(id);
            String where = "history segment '" + id + "' in " + storeName;
            if (bytes == null) {
                throw corrupt(
                        stored,
                        where,
                        "the segment holding messages " + segment.span().from() + " to "
                                + (segment.span().to() - 1) + " of the history is missing");
            }
            try {
                messages = codec.decode(agentId, id, bytes, where);
            } catch (CorruptCheckpointException e) {
                throw new CorruptCheckpointException(
                        agentId,
                        stored.checkpointId(),
                        where,
                        "the history segment is unreadable: " + e.getMessage(),
                        e);
            }
            if (messages.size() != segment.span().length()) {
                throw corrupt(
                        stored,
                        where,
                        "the segment holds " + messages.size() + " messages instead of "
                                + segment.span().length());
            }
            decoded.put(id, messages);
            return messages;
        }

        private byte[][] verify(
                AgentCheckpoint stored, SegmentId segment, byte[] start, List<Message> messages, int blockSize) {
            String key = HEX.formatHex(start) + "/" + segment.text();
            byte[][] values = verified.get(key);
            if (values != null) {
                return values;
            }
            values = new byte[messages.size() / blockSize][];
            byte[] chain = start;
            for (int k = 0; k < values.length; k++) {
                chain = hasher.next(chain, messages.subList(k * blockSize, (k + 1) * blockSize));
                values[k] = chain;
            }
            if (!HEX.formatHex(chain).equals(segment.chain())) {
                throw corrupt(
                        stored,
                        "history segment '" + segment.text() + "' in " + storeName,
                        "the segment does not hold the messages its id names");
            }
            verified.put(key, values);
            return values;
        }

        private CorruptCheckpointException corrupt(AgentCheckpoint stored, String where, String problem) {
            return new CorruptCheckpointException(agentId, stored.checkpointId(), where, problem, null);
        }
    }
}
