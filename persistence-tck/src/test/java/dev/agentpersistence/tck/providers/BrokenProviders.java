package dev.agentpersistence.tck.providers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.internal.StorageChecks;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/** Providers with one deliberate defect each; the kit must fail every one of them. */
public final class BrokenProviders {
    private BrokenProviders() {}

    /** Returns every match, ignoring {@code limit}. */
    public static final class IgnoresLimit extends ReferenceProvider {
        public IgnoresLimit(ReferenceStore store) {
            super(store);
        }

        @Override
        protected List<AgentCheckpoint> limit(CheckpointFilter filter, List<AgentCheckpoint> ascending) {
            return ascending;
        }
    }

    /** Applies {@code limit} to all checkpoints first and filters afterwards. */
    public static final class LimitBeforeFilter extends ReferenceProvider {
        public LimitBeforeFilter(ReferenceStore store) {
            super(store);
        }

        @Override
        public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
            requireOpen();
            StorageChecks.requireAgentId(agentId);
            var f = filter == null ? CheckpointFilter.ALL : filter;
            var result = new ArrayList<AgentCheckpoint>();
            for (var checkpoint : limit(f, all(agentId))) {
                if (matches(f, checkpoint)) {
                    result.add(checkpoint);
                }
            }
            return result;
        }
    }

    /** Hands out its own list of the agent's checkpoints, which later saves keep changing. */
    public static final class ReturnsLiveList extends ReferenceProvider {
        private final Map<String, List<AgentCheckpoint>> live = new java.util.HashMap<>();

        public ReturnsLiveList(ReferenceStore store) {
            super(store);
        }

        @Override
        protected void store(String agentId, AgentCheckpoint checkpoint) {
            super.store(agentId, checkpoint);
            var list = live.computeIfAbsent(agentId, a -> new ArrayList<>());
            list.clear();
            list.addAll(super.all(agentId));
        }

        @Override
        public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
            var result = super.getCheckpoints(agentId, filter);
            synchronized (store) {
                var list = live.get(agentId);
                return list != null && list.equals(result) ? list : result;
            }
        }
    }

    /** Lists newest first. */
    public static final class DescendingOrder extends ReferenceProvider {
        public DescendingOrder(ReferenceStore store) {
            super(store);
        }

        @Override
        public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
            var list = new ArrayList<>(super.getCheckpoints(agentId, filter));
            Collections.reverse(list);
            return list;
        }

        @Override
        public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
            var list = super.getCheckpoints(agentId, filter);
            return list.isEmpty() ? Optional.empty() : Optional.of(list.get(list.size() - 1));
        }
    }

    /** Orders versions as text, so 10 comes before 9. */
    public static final class TextualVersionOrder extends ReferenceProvider {
        public TextualVersionOrder(ReferenceStore store) {
            super(store);
        }

        @Override
        protected List<AgentCheckpoint> all(String agentId) {
            var list = super.all(agentId);
            list.sort(Comparator.comparing(c -> Long.toString(c.version())));
            return list;
        }
    }

    /** The latest ignores the filter. */
    public static final class LatestIgnoresFilter extends ReferenceProvider {
        public LatestIgnoresFilter(ReferenceStore store) {
            super(store);
        }

        @Override
        public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
            return super.getLatestCheckpoint(agentId, null);
        }
    }

    /** Saves replace whatever is stored at the version. */
    public static final class OverwritesOnConflict extends ReferenceProvider {
        public OverwritesOnConflict(ReferenceStore store) {
            super(store);
        }

        @Override
        protected Optional<AgentCheckpoint> findCollision(String agentId, AgentCheckpoint checkpoint) {
            return Optional.empty();
        }
    }

    /** Checks only the version, so one checkpoint id can be stored at two versions. */
    public static final class NoIdConflictCheck extends ReferenceProvider {
        public NoIdConflictCheck(ReferenceStore store) {
            super(store);
        }

        @Override
        protected Optional<AgentCheckpoint> findCollision(String agentId, AgentCheckpoint checkpoint) {
            var found = super.findCollision(agentId, checkpoint);
            return found.filter(stored -> stored.version() == checkpoint.version());
        }
    }

    /** Treats an identical re-save as a conflict. */
    public static final class ResaveConflicts extends ReferenceProvider {
        public ResaveConflicts(ReferenceStore store) {
            super(store);
        }

        @Override
        protected Optional<AgentCheckpoint> findCollision(String agentId, AgentCheckpoint checkpoint) {
            var found = super.findCollision(agentId, checkpoint);
            found.ifPresent(stored -> {
                throw CheckpointConflictException.of(agentId, checkpoint, stored);
            });
            return found;
        }
    }

    /** Checks for collisions outside the lock, then stores: two racers can both win. */
    public static final class NotThreadSafeOnConflict extends ReferenceProvider {
        public NotThreadSafeOnConflict(ReferenceStore store) {
            super(store);
        }

        @Override
        public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
            requireOpen();
            StorageChecks.requireSaveArguments(agentId, checkpoint);
            dev.agentpersistence.codec.JsonLimits.check(checkpoint);
            Optional<AgentCheckpoint> existing;
            synchronized (store) {
                existing = findCollision(agentId, checkpoint);
            }
            if (existing.isPresent()) {
                StorageChecks.requireIdentical(agentId, checkpoint, existing.get());
                return;
            }
            try {
                Thread.sleep(2); // a backend round trip between the check and the write
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            synchronized (store) {
                store(agentId, checkpoint);
            }
        }
    }

    /** Files agents by a prefix match on read: agent {@code a} also sees {@code a/b} and {@code ab}. */
    public static final class LeaksBetweenAgents extends ReferenceProvider {
        public LeaksBetweenAgents(ReferenceStore store) {
            super(store);
        }

        @Override
        protected List<AgentCheckpoint> all(String agentId) {
            synchronized (store) {
                // Sorted, and a later agent's version replaces an earlier one's, so the leak shows
                // whatever random ids the test picked (hash order would hide it now and then).
                var merged = new TreeMap<Long, AgentCheckpoint>();
                new TreeMap<>(store.agents).forEach((agent, versions) -> {
                    if (agent.startsWith(agentId)) {
                        merged.putAll(versions);
                    }
                });
                return new ArrayList<>(merged.values());
            }
        }
    }

    /** Files agents case-insensitively, like a database column with a case-insensitive collation. */
    public static final class CaseInsensitiveAgents extends ReferenceProvider {
        public CaseInsensitiveAgents(ReferenceStore store) {
            super(store);
        }

        @Override
        protected String key(String agentId) {
            return agentId.toLowerCase(Locale.ROOT);
        }
    }

    /** {@code getCheckpoint} searches every agent. */
    public static final class LookupAcrossAgents extends ReferenceProvider {
        public LookupAcrossAgents(ReferenceStore store) {
            super(store);
        }

        @Override
        public Optional<AgentCheckpoint> getCheckpoint(String agentId, String checkpointId) {
            requireOpen();
            synchronized (store) {
                for (var versions : store.agents.values()) {
                    for (var checkpoint : versions.values()) {
                        if (checkpoint.checkpointId().equals(checkpointId)) {
                            return Optional.of(checkpoint);
                        }
                    }
                }
            }
            return Optional.empty();
        }
    }

    /** Saves under the argument's agent without checking the checkpoint's own agent id. */
    public static final class IgnoresAgentMismatch extends ReferenceProvider {
        public IgnoresAgentMismatch(ReferenceStore store) {
            super(store);
        }

        @Override
        public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
            requireOpen();
            synchronized (store) {
                store(agentId, checkpoint);
            }
        }
    }

    /** Answers reads for invalid agent ids with empty results instead of rejecting them. */
    public static final class AcceptsInvalidIds extends ReferenceProvider {
        public AcceptsInvalidIds(ReferenceStore store) {
            super(store);
        }

        @Override
        public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
            if (agentId != null && !dev.agentpersistence.Identifiers.isValid(agentId)) {
                return List.of();
            }
            return super.getCheckpoints(agentId, filter);
        }
    }

    /** {@code createdBefore} compared inclusively. */
    public static final class CreatedBeforeInclusive extends ReferenceProvider {
        public CreatedBeforeInclusive(ReferenceStore store) {
            super(store);
        }

        @Override
        protected boolean matches(CheckpointFilter filter, AgentCheckpoint checkpoint) {
            return filter.toBuilder().createdBefore(null).build().matches(checkpoint)
                    && (filter.createdBefore() == null
                            || !checkpoint.createdAt().isAfter(filter.createdBefore()));
        }
    }

    /** {@code createdAfter} compared exclusively. */
    public static final class CreatedAfterExclusive extends ReferenceProvider {
        public CreatedAfterExclusive(ReferenceStore store) {
            super(store);
        }

        @Override
        protected boolean matches(CheckpointFilter filter, AgentCheckpoint checkpoint) {
            return filter.matches(checkpoint)
                    && (filter.createdAfter() == null || checkpoint.createdAt().isAfter(filter.createdAfter()));
        }
    }

    /** Compares creation times at millisecond precision, like a coarse index column used alone. */
    public static final class MillisecondTimeFilter extends ReferenceProvider {
        public MillisecondTimeFilter(ReferenceStore store) {
            super(store);
        }

        @Override
        protected boolean matches(CheckpointFilter filter, AgentCheckpoint checkpoint) {
            var coarse = filter.toBuilder()
                    .createdAfter(
                            filter.createdAfter() == null
                                    ? null
                                    : filter.createdAfter().truncatedTo(ChronoUnit.MILLIS))
                    .createdBefore(
                            filter.createdBefore() == null
                                    ? null
                                    : filter.createdBefore()
                                            .truncatedTo(ChronoUnit.MILLIS)
                                            .plusMillis(1))
                    .build();
            return coarse.matches(checkpoint.toBuilder()
                    .createdAt(checkpoint.createdAt().truncatedTo(ChronoUnit.MILLIS))
                    .build());
        }
    }

    /** {@code maxVersion} compared exclusively. */
    public static final class MaxVersionExclusive extends ReferenceProvider {
        public MaxVersionExclusive(ReferenceStore store) {
            super(store);
        }

        @Override
        protected boolean matches(CheckpointFilter filter, AgentCheckpoint checkpoint) {
            return filter.matches(checkpoint)
                    && (filter.maxVersion() == null || checkpoint.version() < filter.maxVersion());
        }
    }

    /** {@code nodeId} matched as a prefix. */
    public static final class NodeIdPrefixMatch extends ReferenceProvider {
        public NodeIdPrefixMatch(ReferenceStore store) {
            super(store);
        }

        @Override
        protected boolean matches(CheckpointFilter filter, AgentCheckpoint checkpoint) {
            return filter.toBuilder().nodeId(null).build().matches(checkpoint)
                    && (filter.nodeId() == null
                            || (checkpoint.nodeId() != null
                                    && checkpoint.nodeId().startsWith(filter.nodeId())));
        }
    }

    /** Metadata matches when any one entry matches. */
    public static final class MetadataAnyMatch extends ReferenceProvider {
        public MetadataAnyMatch(ReferenceStore store) {
            super(store);
        }

        @Override
        protected boolean matches(CheckpointFilter filter, AgentCheckpoint checkpoint) {
            if (!filter.toBuilder().metadata(Map.of()).build().matches(checkpoint)) {
                return false;
            }
            if (filter.metadata().isEmpty()) {
                return true;
            }
            for (var entry : filter.metadata().entrySet()) {
                if (entry.getValue().equals(checkpoint.metadata().get(entry.getKey()))) {
                    return true;
                }
            }
            return false;
        }
    }

    /** {@code includeTombstones=false} is ignored. */
    public static final class TombstonesAlwaysIncluded extends ReferenceProvider {
        public TombstonesAlwaysIncluded(ReferenceStore store) {
            super(store);
        }

        @Override
        protected boolean matches(CheckpointFilter filter, AgentCheckpoint checkpoint) {
            return filter.toBuilder().includeTombstones(true).build().matches(checkpoint);
        }
    }

    /** Stores {@code createdAt} at millisecond precision. */
    public static final class DropsNanoseconds extends ReferenceProvider {
        public DropsNanoseconds(ReferenceStore store) {
            super(store);
        }

        @Override
        protected void store(String agentId, AgentCheckpoint checkpoint) {
            super.store(
                    agentId,
                    checkpoint.toBuilder()
                            .createdAt(checkpoint.createdAt().truncatedTo(ChronoUnit.MILLIS))
                            .build());
        }
    }

    /** Reads a JSON {@code null} input back as no input. */
    public static final class JsonNullBecomesNull extends ReferenceProvider {
        public JsonNullBecomesNull(ReferenceStore store) {
            super(store);
        }

        @Override
        protected void store(String agentId, AgentCheckpoint checkpoint) {
            var input = checkpoint.lastInput();
            super.store(
                    agentId,
                    input != null && input.isNull()
                            ? checkpoint.toBuilder().lastInput(null).build()
                            : checkpoint);
        }
    }

    /** Keeps only the last 1,000 messages of a history. */
    public static final class TruncatesHistory extends ReferenceProvider {
        public TruncatesHistory(ReferenceStore store) {
            super(store);
        }

        @Override
        protected void store(String agentId, AgentCheckpoint checkpoint) {
            List<Message> history = checkpoint.messageHistory();
            super.store(
                    agentId,
                    history.size() <= 1_000
                            ? checkpoint
                            : checkpoint.toBuilder()
                                    .messageHistory(history.subList(history.size() - 1_000, history.size()))
                                    .build());
        }
    }

    /** Cuts text state values at 65,535 characters, like a TEXT column. */
    public static final class TruncatesLargeText extends ReferenceProvider {
        public TruncatesLargeText(ReferenceStore store) {
            super(store);
        }

        @Override
        protected void store(String agentId, AgentCheckpoint checkpoint) {
            var state = new TreeMap<String, JsonNode>(checkpoint.state());
            state.replaceAll(
                    (key, value) -> value.isTextual() && value.textValue().length() > 65_535
                            ? new TextNode(value.textValue().substring(0, 65_535))
                            : value);
            super.store(agentId, checkpoint.toBuilder().state(state).build());
        }
    }

    /** {@code deleteCheckpointsBefore} also deletes the given version. */
    public static final class DeleteBeforeInclusive extends ReferenceProvider {
        public DeleteBeforeInclusive(ReferenceStore store) {
            super(store);
        }

        @Override
        public int deleteCheckpointsBefore(String agentId, long version) {
            return super.deleteCheckpointsBefore(agentId, version == Long.MAX_VALUE ? version : version + 1);
        }
    }

    /** {@code deleteCheckpoints} deletes but reports zero. */
    public static final class DeleteCountsZero extends ReferenceProvider {
        public DeleteCountsZero(ReferenceStore store) {
            super(store);
        }

        @Override
        public int deleteCheckpoints(String agentId) {
            super.deleteCheckpoints(agentId);
            return 0;
        }
    }

    /** Remembers deleted checkpoint ids forever, so they can never be used again. */
    public static final class StaleIdsAfterDelete extends ReferenceProvider {
        private final Set<String> everUsed = new HashSet<>();

        public StaleIdsAfterDelete(ReferenceStore store) {
            super(store);
        }

        @Override
        protected Optional<AgentCheckpoint> findCollision(String agentId, AgentCheckpoint checkpoint) {
            var found = super.findCollision(agentId, checkpoint);
            if (found.isEmpty() && everUsed.contains(agentId + "\u0000" + checkpoint.checkpointId())) {
                throw new CheckpointConflictException(
                        agentId, checkpoint.checkpointId(), checkpoint.version(), "checkpoint id was used before");
            }
            return found;
        }

        @Override
        protected void store(String agentId, AgentCheckpoint checkpoint) {
            everUsed.add(agentId + "\u0000" + checkpoint.checkpointId());
            super.store(agentId, checkpoint);
        }
    }

    /** Lists agents in reverse order. */
    public static final class ListAgentsUnsorted extends ReferenceProvider {
        public ListAgentsUnsorted(ReferenceStore store) {
            super(store);
        }

        @Override
        public List<String> listAgents() {
            var ids = new ArrayList<>(super.listAgents());
            Collections.reverse(ids);
            return ids;
        }
    }

    /** Keeps listing agents whose checkpoints were all deleted. */
    public static final class ListAgentsKeepsEmptied extends ReferenceProvider {
        private final Set<String> everSaved = new HashSet<>();

        public ListAgentsKeepsEmptied(ReferenceStore store) {
            super(store);
        }

        @Override
        protected void store(String agentId, AgentCheckpoint checkpoint) {
            everSaved.add(agentId);
            super.store(agentId, checkpoint);
        }

        @Override
        public List<String> listAgents() {
            var ids = new java.util.TreeSet<>(super.listAgents());
            synchronized (store) {
                ids.addAll(everSaved);
            }
            return new ArrayList<>(ids);
        }
    }

    /** Declares {@code close()} but keeps working afterwards. */
    public static final class UsableAfterClose extends ReferenceProvider {
        public UsableAfterClose(ReferenceStore store) {
            super(store);
        }

        @Override
        public void close() {
            // forgets to mark itself closed
        }
    }

    /** Throws when closed a second time. */
    public static final class CloseNotIdempotent extends ReferenceProvider {
        private boolean closedOnce;

        public CloseNotIdempotent(ReferenceStore store) {
            super(store);
        }

        @Override
        public synchronized void close() {
            if (closedOnce) {
                throw new IllegalStateException("already closed");
            }
            closedOnce = true;
            super.close();
        }
    }
}
