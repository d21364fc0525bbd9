package dev.agentpersistence.tck.providers;

import dev.agentpersistence.AgentCheckpoint;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/** The storage several {@link ReferenceProvider} instances can share. All fields are guarded by {@code this}. */
public final class ReferenceStore {
    /** agent key → version → checkpoint. */
    final Map<String, TreeMap<Long, AgentCheckpoint>> agents = new HashMap<>();
    /** agent key → checkpoint id → version. */
    final Map<String, Map<String, Long>> ids = new HashMap<>();
    /** agent id → segment id → history segment. */
    final Map<String, TreeMap<String, Segment>> segments = new HashMap<>();

    /** A stored history segment. */
    record Segment(byte[] content, Instant writtenAt) {}
}
