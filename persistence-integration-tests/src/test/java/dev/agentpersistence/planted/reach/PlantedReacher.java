package dev.agentpersistence.planted.reach;

import dev.agentpersistence.planted.backend.internal.PlantedRecords;

/** A planted module that reaches the planted backend module's internal package. */
public final class PlantedReacher {
    /** Counts through another module's internals. */
    public int count() {
        return new PlantedRecords().count();
    }
}
