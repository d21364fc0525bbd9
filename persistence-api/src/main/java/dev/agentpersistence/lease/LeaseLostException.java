package dev.agentpersistence.lease;

import dev.agentpersistence.PersistenceException;

/**
 * A lease was granted to another owner since it was read (it expired and was taken over, or was released). Nothing was
 * written. No retry helps: stop working on the resource; its new owner recovers it.
 */
public class LeaseLostException extends PersistenceException {
    private final String name;

    public LeaseLostException(String name, String message) {
        super(message);
        this.name = name;
    }

    /** The resource whose lease was lost. */
    public String name() {
        return name;
    }
}
