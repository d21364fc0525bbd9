package dev.agentpersistence.planted.cycle.pong;

import dev.agentpersistence.planted.cycle.ping.Ping;

/** The other half of a planted package cycle. */
public final class Pong {
    /** The first half. */
    public Ping ping() {
        return new Ping();
    }
}
