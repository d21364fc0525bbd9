package dev.agentpersistence.s3.internal;

import dev.agentpersistence.backend.SortableDigits;

/**
 * Where every object lives, below an optional prefix {@code P/} ({@code A} is the agent's {@link KeyParts key part},
 * {@code I} a checkpoint id's, {@code R} the inverted version: {@code Long.MAX_VALUE - version} in 19 digits, so that
 * ascending keys are descending versions):
 *
 * <pre>
 * P/v/A/R                 checkpoint body; its existence is the commit of a save
 * P/x/A/R.&lt;attrs&gt;/I      one-byte index object with the filterable attributes in its name ({@link IndexEntry})
 * P/id/A/I                id marker: version and checkpoint id (lookup by id without listing)
 * P/l/A                   latest pointer: "1\n&lt;version&gt;", at or above every committed body
 *                         ({@link LatestPointer})
 * P/n/A                   the agent id, for agents whose segment is a digest
 * P/h/A/S                 history segment S (the segment id's key segment): the id, a newline, the bytes
 * P/h/A/n                 the agent id, for agents with history segments whose segment is a digest
 * P/q/Q/I                 queue item I of queue Q (their key parts): a header, then the body ({@link QueueFormat})
 * P/qo/Q/&lt;marker&gt;        open-item marker, empty: an unfinished version of an item ({@link QueueMarker})
 * P/qh/Q/I                hold of item I by a claim ({@link QueueFormat#hold})
 * P/qf/Q/&lt;entry&gt;         finished-index entry, empty: a finished item by submission time ({@link FinishedEntry})
 * </pre>
 */
public final class KeyLayout {
    private static final String BODIES = "v/";
    private static final String INDEX = "x/";
    private static final String MARKERS = "id/";
    private static final String NAMES = "n/";
    private static final String POINTERS = "l/";
    private static final String HISTORY = "h/";
    private static final String HISTORY_NAME = "n";
    private static final String QUEUE_ITEMS = "q/";
    private static final String QUEUE_MARKERS = "qo/";
    private static final String QUEUE_HOLDS = "qh/";
    private static final String QUEUE_FINISHED = "qf/";
    private static final int TIME_DIGITS = 20;

    private final String root;

    /** A layout under {@code prefix} (no leading or trailing slash; empty for the bucket root). */
    public KeyLayout(String prefix) {
        this.root = prefix.isEmpty() ? "" : prefix + "/";
    }

    /** {@code Long.MAX_VALUE - version}, zero-padded to 19 digits. */
    public static String invert(long version) {
        return SortableDigits.of(Long.MAX_VALUE - version, SortableDigits.LONG_DIGITS);
    }

    /** The version an inverted, zero-padded number stands for. */
    public static long uninvert(String inverted) {
        if (inverted.length() != 19) {
            throw new NumberFormatException("not 19 digits: " + inverted);
        }
        for (int i = 0; i < inverted.length(); i++) {
            if (inverted.charAt(i) < '0' || inverted.charAt(i) > '9') {
                throw new NumberFormatException("not 19 digits: " + inverted);
            }
        }
        return Long.MAX_VALUE - Long.parseLong(inverted);
    }

    /**
     * {@code nanos} (which may be negative) as 20 digits that sort like the numbers: {@code nanos - Long.MIN_VALUE},
     * unsigned and zero-padded.
     */
    public static String sortableTime(long nanos) {
        String digits = Long.toUnsignedString(nanos ^ Long.MIN_VALUE);
        return digits.length() == TIME_DIGITS ? digits : "0".repeat(TIME_DIGITS - digits.length()) + digits;
    }

    /** The number {@link #sortableTime} wrote. */
    public static long ofSortableTime(String digits) {
        if (digits.length() != TIME_DIGITS || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new NumberFormatException("not " + TIME_DIGITS + " digits: " + digits);
        }
        return Long.parseUnsignedLong(digits) ^ Long.MIN_VALUE;
    }

    /** The folder whose sub-folders are the agents with at least one body. */
    public String agentsFolder() {
        return root + BODIES;
    }

    /** The agent segment of a folder returned when listing {@link #agentsFolder()} with a delimiter. */
    public String agentOfFolder(String folder) {
        String rest = folder.substring(agentsFolder().length());
        return rest.endsWith("/") ? rest.substring(0, rest.length() - 1) : rest;
    }

    public String bodyFolder(String agent) {
        return root + BODIES + agent + "/";
    }

    public String bodyKey(String agent, long version) {
        return bodyFolder(agent) + invert(version);
    }

    /** The version of a body key in {@link #bodyFolder(String)}. */
    public long versionOfBody(String agent, String key) {
        return uninvert(key.substring(bodyFolder(agent).length()));
    }

    /** The StartAfter that makes a newest-first listing of bodies begin at {@code maxVersion}; null for no bound. */
    public String bodiesUpTo(String agent, Long maxVersion) {
        if (maxVersion == null || maxVersion == Long.MAX_VALUE) {
            return null;
        }
        return bodyKey(agent, maxVersion + 1);
    }

    /** The StartAfter that lists the bodies of versions strictly below {@code version}. */
    public String bodiesBelow(String agent, long version) {
        return bodyKey(agent, version);
    }

    public String indexFolder(String agent) {
        return root + INDEX + agent + "/";
    }

    public String indexKey(String agent, IndexEntry entry) {
        return indexFolder(agent) + entry.leaf() + "/" + entry.idSegment();
    }

    /** Parses a key of {@link #indexFolder(String)}; null when it is not an index entry. */
    public IndexEntry indexEntryOf(String agent, String key) {
        String rest = key.substring(indexFolder(agent).length());
        int slash = rest.indexOf('/');
        if (slash < 0) {
            return null;
        }
        return IndexEntry.parse(rest.substring(0, slash), rest.substring(slash + 1))
                .orElse(null);
    }

    /**
     * The StartAfter that makes a newest-first listing of index entries begin at {@code maxVersion}; null for no bound.
     */
    public String indexUpTo(String agent, Long maxVersion) {
        return maxVersion == null ? null : indexFolder(agent) + invert(maxVersion);
    }

    /** The StartAfter that lists the index entries of versions strictly below {@code version}. */
    public String indexBelow(String agent, long version) {
        return indexFolder(agent) + invert(version) + "~";
    }

    public String markerFolder(String agent) {
        return root + MARKERS + agent + "/";
    }

    public String markerKey(String agent, String idSegment) {
        return markerFolder(agent) + idSegment;
    }

    public String nameKey(String agent) {
        return root + NAMES + agent;
    }

    /** The agent's {@link LatestPointer}. */
    public String pointerKey(String agent) {
        return root + POINTERS + agent;
    }

    /** The folder whose sub-folders are the agents with history segments. */
    public String segmentAgentsFolder() {
        return root + HISTORY;
    }

    /** The agent segment of a folder returned when listing {@link #segmentAgentsFolder()} with a delimiter. */
    public String agentOfSegmentFolder(String folder) {
        String rest = folder.substring(segmentAgentsFolder().length());
        return rest.endsWith("/") ? rest.substring(0, rest.length() - 1) : rest;
    }

    public String segmentFolder(String agent) {
        return root + HISTORY + agent + "/";
    }

    /** The key of a history segment; {@code segment} is the segment id's {@link KeyParts} encoding. */
    public String segmentKey(String agent, String segment) {
        return segmentFolder(agent) + segment;
    }

    /** The key holding the agent id of a digest-named agent with history segments. */
    public String segmentNameKey(String agent) {
        return segmentFolder(agent) + HISTORY_NAME;
    }

    /** The items of queue {@code queue} (its key part). */
    public String queueItemFolder(String queue) {
        return root + QUEUE_ITEMS + queue + "/";
    }

    /** Item {@code item} (its key part) of queue {@code queue}. */
    public String queueItemKey(String queue, String item) {
        return queueItemFolder(queue) + item;
    }

    /** The open-item markers of {@code queue}, ascending by submission time. */
    public String queueMarkerFolder(String queue) {
        return root + QUEUE_MARKERS + queue + "/";
    }

    public String queueMarkerKey(String queue, QueueMarker marker) {
        return queueMarkerFolder(queue) + marker.leaf();
    }

    /** The hold of item {@code item} of {@code queue}. */
    public String queueHoldKey(String queue, String item) {
        return root + QUEUE_HOLDS + queue + "/" + item;
    }

    /** The finished index of {@code queue}, ascending by submission time. */
    public String queueFinishedFolder(String queue) {
        return root + QUEUE_FINISHED + queue + "/";
    }

    public String queueFinishedKey(String queue, FinishedEntry entry) {
        return queueFinishedFolder(queue) + entry.leaf();
    }
}
