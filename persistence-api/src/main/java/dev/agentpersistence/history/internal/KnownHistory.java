package dev.agentpersistence.history.internal;

import dev.agentpersistence.Message;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * What the cache remembers of an agent's latest history: its complete blocks, the hash chain over them
 * ({@code chain[k]} = c(k), so {@code chain.length} is the block count plus one) and when this process last wrote each
 * segment it referenced. Never mutated after construction but for its {@link DerivedIdMemo}; its messages are private
 * (no JSON container node is shared with a caller), so reads may answer from them.
 */
public final class KnownHistory implements CachedHistory {
    private static final HexFormat HEX = HexFormat.of();

    private final int blockSize;
    private final List<Message> blocks;
    private final byte[][] chain;
    private final Map<String, Instant> written;
    private final DerivedIdMemo derivedIds;

    public KnownHistory(int blockSize, List<Message> blocks, byte[][] chain, Map<String, Instant> written) {
        if (blocks.size() != (chain.length - 1) * blockSize) {
            throw new IllegalArgumentException(
                    blocks.size() + " messages do not make " + (chain.length - 1) + " blocks of " + blockSize);
        }
        this.blockSize = blockSize;
        this.blocks = blocks;
        this.chain = chain;
        this.written = Map.copyOf(written);
        this.derivedIds = new DerivedIdMemo(blocks);
    }

    @Override
    public DerivedIdMemo derivedIds() {
        return derivedIds;
    }

    /** Messages per block. */
    public int blockSize() {
        return blockSize;
    }

    @Override
    public int messageCount() {
        return blocks.size();
    }

    /** How many complete blocks are known. */
    public int blockCount() {
        return chain.length - 1;
    }

    /** Whether block {@code k} of {@code history} is the known block {@code k} (same or equal messages). */
    public boolean sameBlock(int k, List<Message> history) {
        int from = k * blockSize;
        for (int i = from; i < from + blockSize; i++) {
            Message known = blocks.get(i);
            Message other = history.get(i);
            if (known != other && !known.equals(other)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The known messages {@code [from, to)}: shared, never handed to callers without
     * {@link dev.agentpersistence.internal.Isolation}.
     */
    public List<Message> messages(int from, int to) {
        return blocks.subList(from, to);
    }

    /**
     * Whether the known blocks hold the messages of {@code segment}, as the segment's chain value proves: c(to) names
     * every message before {@code to} exactly.
     */
    public boolean holds(SegmentId segment, int segmentBlockSize) {
        if (segmentBlockSize != blockSize || segment.span().to() % blockSize != 0) {
            return false;
        }
        int end = segment.span().to() / blockSize;
        return end < chain.length && HEX.formatHex(chain[end]).equals(segment.chain());
    }

    /**
     * Whether this is the history of {@code blockCount} blocks of {@code blockSize} ending in chain value {@code end}.
     */
    public boolean isHistory(int blockSize, byte[] end, int blockCount) {
        return this.blockSize == blockSize && chain.length == blockCount + 1 && Arrays.equals(chain[blockCount], end);
    }

    /** c(k). */
    public byte[] chain(int k) {
        return chain[k];
    }

    /** When this process last wrote the segment, if it did. */
    public Instant writtenAt(String segmentId) {
        return written.get(segmentId);
    }
}
