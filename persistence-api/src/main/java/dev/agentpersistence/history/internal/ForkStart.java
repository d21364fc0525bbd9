package dev.agentpersistence.history.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentNamespace;
import dev.agentpersistence.ForkOrigin;
import dev.agentpersistence.Identifiers;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.internal.Forks;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * Recognises the first checkpoint of a fork ({@link Forks#firstCheckpoint}) whose history is exactly one its parent
 * keeps in its message log, so that the fork is stored by reference to the parent's entries instead of a copy. A
 * checkpoint that only looks like one, a parent in another namespace, or a history the parent's log does not hold is
 * stored as any other save is.
 */
public final class ForkStart {
    private final ChainCache cache;
    private final BiConsumer<String, String> readCheckpoint;

    /**
     * @param readCheckpoint reads a checkpoint by agent and checkpoint id through the storage, which remembers its log
     *     in {@code cache}
     */
    public ForkStart(ChainCache cache, BiConsumer<String, String> readCheckpoint) {
        this.cache = Objects.requireNonNull(cache, "cache");
        this.readCheckpoint = Objects.requireNonNull(readCheckpoint, "readCheckpoint");
    }

    /** The parent and the log of its that holds exactly {@code checkpoint}'s history. */
    public record Parent(String agentId, KnownLog log) {}

    /** The parent whose log holds the history of the fork's first checkpoint {@code checkpoint}, or {@code null}. */
    public Parent parent(String agentId, AgentCheckpoint checkpoint) {
        if (checkpoint.version() != 0) {
            return null; // every save but an agent's first: nothing more to look at
        }
        String parent = checkpoint.metadata().get(ForkOrigin.PARENT_AGENT_KEY);
        String parentCheckpoint = checkpoint.metadata().get(ForkOrigin.PARENT_CHECKPOINT_KEY);
        if (parent == null
                || parentCheckpoint == null
                || !checkpoint.checkpointId().equals(Forks.originCheckpointId(agentId))
                || parent.equals(agentId)
                || !Identifiers.isValid(parent)
                || !Identifiers.isValid(parentCheckpoint)
                || !AgentNamespace.containing(parent).equals(AgentNamespace.containing(agentId))) {
            return null;
        }
        List<Message> history = checkpoint.messageHistory();
        KnownLog known = cache.log(parent);
        if (!holdsExactly(known, history)) {
            try {
                readCheckpoint.accept(parent, parentCheckpoint);
            } catch (PersistenceException e) {
                return null; // the fork is then stored as a copy, which needs nothing of the parent
            }
            known = cache.log(parent);
        }
        return holdsExactly(known, history) ? new Parent(parent, known) : null;
    }

    private static boolean holdsExactly(KnownLog known, List<Message> history) {
        return known != null
                && known.entryCount() > 0
                && known.messageCount() == history.size()
                && known.sharedEntries(history) == known.entryCount();
    }
}
