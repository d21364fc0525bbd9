package dev.agentpersistence.planted.twins.one;

/** One of two planted classes sharing a simple name. */
public final class Twin {}
