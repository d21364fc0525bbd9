package dev.agentpersistence.lease;

import dev.agentpersistence.PersistenceException;
import java.time.Instant;

/**
 * Another owner holds a live lease on the resource. Nothing was written. A retry after {@link #expiresAt()} can succeed
 * if the holder does not renew.
 */
public class LeaseHeldException extends PersistenceException {
    private final String name;
    private final String holder;
    private final transient Instant expiresAt;

    public LeaseHeldException(String name, String holder, Instant expiresAt) {
        super("'" + name + "' is leased by '" + holder + "' until " + expiresAt);
        this.name = name;
        this.holder = holder;
        this.expiresAt = expiresAt;
    }

    /** The resource asked for. */
    public String name() {
        return name;
    }

    /** The owner holding it. */
    public String holder() {
        return holder;
    }

    /** When the holder's lease ends unless renewed. */
    public Instant expiresAt() {
        return expiresAt;
    }
}
