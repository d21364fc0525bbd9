package dev.agentpersistence.tck.providers;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.tck.RequiredMethodsProvider;

/**
 * A correct custom provider that implements only the three abstract methods, as the SPI allows: no deletion, no
 * {@code listAgents}, no {@code close}. The kit must report those as unsupported (aborted with the reason), never as
 * passed or failed.
 */
public final class MinimalProvider extends RequiredMethodsProvider<CheckpointFilter> {

    public MinimalProvider(ReferenceStore store) {
        super(new ReferenceProvider(store));
    }
}
