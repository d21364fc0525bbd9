package dev.agentpersistence.history.internal;

import java.util.Map;

/** The metadata keys the stored form reserves for itself; callers may not use them. */
public final class ReservedMetadata {
    /** Metadata keys with this prefix are reserved for the library. */
    public static final String PREFIX = "__agent-persistence.";
    /** The metadata entry holding a checkpoint's history descriptor when its history is stored in segments. */
    public static final String DESCRIPTOR_KEY = PREFIX + "history";

    private ReservedMetadata() {}

    /**
     * Refuses {@code metadata} that uses a reserved key.
     *
     * @param what what the map is, for the message ("checkpoint metadata", "filter metadata")
     * @throws IllegalArgumentException naming the key
     */
    public static void requireUnreserved(Map<String, String> metadata, String what) {
        for (String key : metadata.keySet()) {
            if (key.startsWith(PREFIX)) {
                throw new IllegalArgumentException(what + " key '" + key + "' starts with '" + PREFIX
                        + "', which is reserved for agent-persistence's own entries");
            }
        }
    }
}
