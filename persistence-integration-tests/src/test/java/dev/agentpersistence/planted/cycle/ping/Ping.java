package dev.agentpersistence.planted.cycle.ping;

import dev.agentpersistence.planted.cycle.pong.Pong;

/** One half of a planted package cycle. */
public final class Ping {
    /** The other half. */
    public Pong pong() {
        return new Pong();
    }
}
