package dev.agentpersistence.planted.twins.two;

/** The other of two planted classes sharing a simple name. */
public final class Twin {}
