package dev.agentpersistence.history.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.internal.Isolation;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * Prepares a checkpoint for storage: hashes the history's complete blocks (only those the cache does not know), writes
 * the segments the checkpoint references (create-if-absent, before the checkpoint, so a crash leaves at worst
 * unreferenced segments) and returns the checkpoint to store: the messages after the last complete block, plus the
 * descriptor in a reserved metadata entry.
 *
 * <p>A segment this process wrote less than a quarter of the grace period ago is not written again; older ones are
 * written again, which refreshes their write time so that garbage collection (which spares segments younger than the
 * grace period) cannot remove them under a save in flight.
 */
public final class HistoryWriter {
    private static final HexFormat HEX = HexFormat.of();

    private final HistorySegmentStore store;
    private final SegmentCodec codec;
    private final ChainHasher hasher;
    private final ChainCache cache;
    private final Clock clock;
    private final int blockSize;
    private final List<Integer> tierSizes;
    private final Duration rewriteAfter;
    private final String descriptorKey;

    public HistoryWriter(
            HistorySegmentStore store,
            SegmentCodec codec,
            ChainHasher hasher,
            ChainCache cache,
            Clock clock,
            int blockSize,
            List<Integer> tierSizes,
            Duration gracePeriod,
            String descriptorKey) {
        this.store = Objects.requireNonNull(store, "store");
        this.codec = Objects.requireNonNull(codec, "codec");
        this.hasher = Objects.requireNonNull(hasher, "hasher");
        this.cache = Objects.requireNonNull(cache, "cache");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.blockSize = blockSize;
        this.tierSizes = List.copyOf(tierSizes);
        this.rewriteAfter = gracePeriod.dividedBy(4);
        this.descriptorKey = Objects.requireNonNull(descriptorKey, "descriptorKey");
    }

    /** Writes the segments {@code checkpoint} needs and returns its stored form (itself for short histories). */
    public AgentCheckpoint prepare(String agentId, AgentCheckpoint checkpoint) {
        List<Message> history = checkpoint.messageHistory();
        int size = history.size();
        int blocks = size / blockSize;
        if (blocks == 0) {
            return checkpoint;
        }
        KnownHistory known = cache.get(agentId);
        var remembered = new ArrayList<Message>(blocks * blockSize);
        byte[][] chain = chain(known, history, blocks, remembered);
        Instant now = clock.instant();
        var written = new HashMap<String, Instant>();
        var segments = new ArrayList<SegmentId>();
        for (SegmentSpan span : SegmentSpan.of(size, blockSize, tierSizes)) {
            SegmentId id = SegmentId.of(span, chain[span.to() / blockSize]);
            String text = id.text();
            Instant last = known == null ? null : known.writtenAt(text);
            if (last == null || last.isAfter(now) || !last.isAfter(now.minus(rewriteAfter))) {
                store.putSegment(agentId, text, codec.encode(agentId, text, history.subList(span.from(), span.to())));
                last = now;
            }
            written.put(text, last);
            segments.add(id);
        }
        int inline = blocks * blockSize;
        List<Message> tail = history.subList(inline, size);
        String digest = HEX.formatHex(hasher.digest(chain[blocks], tail, size));
        var descriptor = new HistoryDescriptor(size, blockSize, segments, digest);
        var next = new KnownHistory(blockSize, remembered, chain, written);
        if (known != null && known.blockSize() == blockSize) {
            next.derivedIds().inherit(known.derivedIds(), Math.min(known.messageCount(), remembered.size()));
        }
        cache.put(agentId, next);
        return checkpoint.toBuilder()
                .messageHistory(tail)
                .metadata(descriptorKey, descriptor.toJson())
                .build();
    }

    /**
     * Remembers a history read back, with its verified chain, so that the next save extending it hashes only new
     * blocks.
     */
    public void remember(String agentId, HistoryReader.Assembled assembled) {
        if (assembled.chain() == null || assembled.blockSize() != blockSize) {
            return;
        }
        List<Message> history = assembled.checkpoint().messageHistory();
        int blocks = assembled.chain().length - 1;
        KnownHistory current = cache.get(agentId);
        if (current != null && current.isHistory(blockSize, assembled.chain()[blocks], blocks)) {
            return; // already known, with the times this process wrote its segments
        }
        cache.put(
                agentId,
                new KnownHistory(
                        blockSize,
                        Isolation.copy(history.subList(0, blocks * blockSize)),
                        assembled.chain(),
                        new HashMap<>()));
    }

    /**
     * The chain over the history's complete blocks; adds the blocks' messages to {@code remembered}: the cache's own
     * objects for blocks it knows, isolated copies for new ones (the cache must not share mutable JSON with callers,
     * since reads may answer from it).
     */
    private byte[][] chain(KnownHistory known, List<Message> history, int blocks, List<Message> remembered) {
        byte[][] chain = new byte[blocks + 1][];
        chain[0] = ChainHasher.origin();
        int k = 0;
        if (known != null && known.blockSize() == blockSize) {
            int shared = Math.min(blocks, known.blockCount());
            while (k < shared && known.sameBlock(k, history)) {
                chain[k + 1] = known.chain(k + 1);
                k++;
            }
            remembered.addAll(known.messages(0, k * blockSize));
        }
        for (; k < blocks; k++) {
            List<Message> block = history.subList(k * blockSize, (k + 1) * blockSize);
            chain[k + 1] = hasher.next(chain[k], block);
            remembered.addAll(Isolation.copy(block));
        }
        return chain;
    }
}
