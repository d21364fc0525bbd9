package dev.agentpersistence.pipeline.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentNamespace;
import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.ExecutionPoint;
import dev.agentpersistence.SimpleAgentContext;
import dev.agentpersistence.ToolCall;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write-ahead tool journal of one run, kept in the run's storage as the checkpoints of a derived agent id
 * ({@link RunIds#journalId}, in the namespace of tool journals): one save per entry, so an entry is either fully stored
 * or absent, on every provider. Entries are written through {@link AgentPersistence} (which assigns versions); an
 * entry's version orders it. The run's node checkpoints record the version of the last entry of the attempt they commit
 * ({@link #MARK_KEY}); entries after that mark belong to attempts that did not pass, and those without a
 * {@link JournalEntry.Kind#CLOSED} entry were cut off by a crash.
 */
public final class ToolJournal {
    /** Metadata key of a node checkpoint: the journal version of the last entry its attempt wrote. */
    public static final String MARK_KEY = "pipeline.journal.mark";
    /**
     * Metadata key of a node checkpoint: the journal the mark refers to. A checkpoint copied into another run (a fork,
     * {@code rerunFrom}) keeps its metadata, and its mark does not apply there.
     */
    public static final String JOURNAL_KEY = "pipeline.journal";

    private static final String ENTRY_KEY = "journal.entry";
    private static final String KIND_KEY = "journal.kind";
    /** The node name of the entry {@link #claimed()} writes. */
    public static final String CLAIM_NODE = "__claim__";

    private static final Logger LOG = LoggerFactory.getLogger(ToolJournal.class);

    private final AgentPersistence persistence;
    private final String journalId;
    private final boolean legacy;
    private final AtomicLong lastVersion = new AtomicLong(-1);
    private volatile long trimmedBefore;
    /** The newest entry this journal read or wrote: every write is compare-and-set on it. */
    private volatile AgentCheckpoint head;

    private volatile boolean headRead;

    /** The journal of run {@code runId}, in the namespace of tool journals. */
    public ToolJournal(AgentPersistence persistence, String runId) {
        this(persistence.inNamespace(AgentNamespace.TOOL_JOURNALS), RunIds.journalId(runId), false);
    }

    private ToolJournal(AgentPersistence persistence, String journalId, boolean legacy) {
        this.persistence = persistence;
        this.journalId = journalId;
        this.legacy = legacy;
    }

    /**
     * The journal an earlier version kept for run {@code runId} ({@link RunIds#legacyJournalId}): read for open
     * attempts, which are closed there once undone; new entries go to the run's journal in the namespace.
     */
    public static ToolJournal legacy(AgentPersistence persistence, String runId) {
        return new ToolJournal(persistence, RunIds.legacyJournalId(runId), true);
    }

    /** The agent id holding the journal of run {@code runId}, in the namespace of tool journals. */
    public static String journalId(String runId) {
        return RunIds.journalId(runId);
    }

    public String journalId() {
        return journalId;
    }

    /** Journals the intent of a call before the tool runs. */
    public void intent(String node, int attempt, ToolCall call, String key) {
        write(JournalEntry.intent(node, attempt, call, key));
    }

    /** Journals a call's result. */
    public void result(String node, int attempt, String callId, JsonNode result) {
        write(JournalEntry.result(node, attempt, callId, result));
    }

    /** Journals a call's failure. */
    public void failure(String node, int attempt, String callId, Throwable error) {
        write(JournalEntry.failure(node, attempt, callId, String.valueOf(error)));
    }

    /**
     * Journals that this runner took the run over, right after it read the journal ({@link #openAttempts}): a runner
     * the run was taken from then cannot journal another call (its next entry is refused with
     * {@link dev.agentpersistence.CheckpointConflictException}), so it never calls another tool. The entry closes an
     * attempt that never was ({@link #CLAIM_NODE}), which every reader of the journal skips.
     *
     * @throws dev.agentpersistence.CheckpointConflictException when another runner journaled since this one read
     */
    public void claimed() {
        write(JournalEntry.closed(CLAIM_NODE, 0));
    }

    /** Journals that an attempt's calls were undone; a failure is logged, since recovery undoes again idempotently. */
    public void closeQuietly(String node, int attempt) {
        try {
            write(JournalEntry.closed(node, attempt));
        } catch (RuntimeException e) {
            LOG.warn(
                    "Could not journal the end of attempt {} of node '{}' in journal '{}'; a resumed run will undo its "
                            + "tool calls again: {}",
                    attempt,
                    node,
                    journalId,
                    e.toString());
        }
    }

    /**
     * The mark {@code checkpoint} records for this journal, or -1 when it records none (or one of another run's
     * journal).
     */
    public long markIn(AgentCheckpoint checkpoint) {
        String mark = checkpoint.metadata().get(MARK_KEY);
        if (mark == null || !journalId.equals(checkpoint.metadata().get(JOURNAL_KEY))) {
            return -1;
        }
        return Long.parseLong(mark);
    }

    /** The metadata recording {@code mark} in a node checkpoint; empty for -1. */
    public Map<String, String> markMetadata(long mark) {
        return mark < 0 ? Map.of() : Map.of(MARK_KEY, Long.toString(mark), JOURNAL_KEY, journalId);
    }

    /** The version of the newest entry this journal wrote, or -1. */
    public long lastVersion() {
        return lastVersion.get();
    }

    /**
     * The attempts with entries newer than {@code mark} that were never closed, oldest first, each with its calls in
     * the order they were made.
     */
    public List<OpenAttempt> openAttempts(long mark) {
        var attempts = new LinkedHashMap<String, OpenAttempt.Builder>();
        List<AgentCheckpoint> entries = persistence.storage().getCheckpoints(journalId);
        if (!legacy) {
            head = entries.isEmpty() ? null : entries.get(entries.size() - 1);
            headRead = true;
        }
        for (AgentCheckpoint checkpoint : entries) {
            lastVersion.accumulateAndGet(checkpoint.version(), Math::max);
            JsonNode json = checkpoint.state().get(ENTRY_KEY);
            if (checkpoint.version() <= mark || json == null) {
                continue;
            }
            JournalEntry entry = read(checkpoint, json);
            String id = entry.node() + "#" + entry.attempt();
            if (entry.kind() == JournalEntry.Kind.CLOSED) {
                attempts.remove(id);
            } else {
                attempts.computeIfAbsent(id, k -> new OpenAttempt.Builder(entry.node(), entry.attempt()))
                        .add(entry);
            }
        }
        var open = new ArrayList<OpenAttempt>();
        attempts.values().forEach(builder -> open.add(builder.build()));
        return open;
    }

    /** Deletes the entries older than {@code version} (those of attempts that are settled); best effort. */
    public void trimBefore(long version) {
        if (version <= trimmedBefore) {
            return;
        }
        try {
            persistence.storage().deleteCheckpointsBefore(journalId, version);
            trimmedBefore = version;
        } catch (UnsupportedOperationException e) {
            trimmedBefore = version; // the provider cannot delete: do not ask again for the same mark
        } catch (RuntimeException e) {
            LOG.debug("Could not trim journal '{}' before version {}: {}", journalId, version, e.toString());
        }
    }

    private JournalEntry read(AgentCheckpoint checkpoint, JsonNode json) {
        try {
            return JournalEntry.fromJson(json);
        } catch (IllegalArgumentException e) {
            throw new CorruptCheckpointException(
                    journalId,
                    checkpoint.checkpointId(),
                    "tool journal entry, version " + checkpoint.version(),
                    e.getMessage() + "; the run cannot tell which tool calls to undo, so it does not resume",
                    e);
        }
    }

    private void write(JournalEntry entry) {
        if (legacy) {
            writeLegacy(entry);
            return;
        }
        var context = new SimpleAgentContext(journalId);
        context.restore(new ExecutionPoint(entry.node(), List.of(), null, Map.of(ENTRY_KEY, entry.toJson())));
        if (!headRead) {
            head = persistence.storage().getLatestCheckpoint(journalId).orElse(null);
            headRead = true;
        }
        AgentCheckpoint saved = persistence.createCheckpointAfter(
                Optional.ofNullable(head),
                context,
                entry.node(),
                null,
                null,
                Map.of(KIND_KEY, entry.kind().name()));
        head = saved;
        lastVersion.accumulateAndGet(saved.version(), Math::max);
    }

    /**
     * Appends to a journal of an earlier version, whose id no facade writes (it is reserved): straight through the
     * provider, right after its newest entry.
     */
    private void writeLegacy(JournalEntry entry) {
        var storage = persistence.storage();
        Optional<AgentCheckpoint> newest = storage.getLatestCheckpoint(journalId);
        var checkpoint = AgentCheckpoint.builder()
                .checkpointId(UUID.randomUUID().toString())
                .agentId(journalId)
                .version(newest.map(cp -> cp.version() + 1).orElse(0L))
                .createdAt(persistence.clock().instant())
                .nodeId(entry.node())
                .state(Map.of(ENTRY_KEY, entry.toJson()))
                .metadata(Map.of(KIND_KEY, entry.kind().name()))
                .parentCheckpointId(newest.map(AgentCheckpoint::checkpointId).orElse(null))
                .build();
        storage.saveCheckpointAfter(journalId, newest, checkpoint);
        lastVersion.accumulateAndGet(checkpoint.version(), Math::max);
    }
}
