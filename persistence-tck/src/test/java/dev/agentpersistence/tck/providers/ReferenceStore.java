package dev.agentpersistence.tck.providers;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/** The storage several {@link ReferenceProvider} instances can share: encoded checkpoints per agent and version. */
public final class ReferenceStore {
    /** agent → version → encoded checkpoint. Guarded by {@code this}. */
    final Map<String, TreeMap<Long, byte[]>> agents = new HashMap<>();
}
