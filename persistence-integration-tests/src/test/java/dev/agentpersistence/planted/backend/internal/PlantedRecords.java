package dev.agentpersistence.planted.backend.internal;

/** The internal part of the planted backend module. */
public final class PlantedRecords {
    /** How many records the planted backend keeps. */
    public int count() {
        return 0;
    }
}
