package dev.agentpersistence.tck.providers;

import dev.agentpersistence.AgentCheckpoint;
import java.util.Optional;

/** A correct provider that declares {@code getCheckpoint} unsupported. */
public final class NoLookupProvider extends ReferenceProvider {
    public NoLookupProvider(ReferenceStore store) {
        super(store);
    }

    @Override
    public Optional<AgentCheckpoint> getCheckpoint(String agentId, String checkpointId) {
        throw new UnsupportedOperationException("lookups by id are not indexed by this backend");
    }
}
