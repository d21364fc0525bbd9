package dev.agentpersistence.benchmarks.peer;

import java.util.List;

/**
 * A checkpoint store driven by the peer workload: ours through a provider, or a peer framework's. Each implementation
 * turns {@link Turn}s into its own message type, once per message.
 */
public interface PeerStore extends AutoCloseable {

    /** Saves the checkpoint taken after step {@code step} (0-based), holding the whole {@code history} so far. */
    void save(int step, List<Turn> history) throws Exception;

    /** Reads the latest checkpoint and returns the size of its history. */
    int latestHistorySize() throws Exception;

    /** Lists every checkpoint of the agent and returns how many there are. */
    int listSize() throws Exception;

    /** Bytes the store occupies after the run, or -1 where that is not measurable (heap stores). */
    long bytesStored() throws Exception;

    /** A note for the results table, such as the durability of a save. */
    String note();

    @Override
    void close();
}
