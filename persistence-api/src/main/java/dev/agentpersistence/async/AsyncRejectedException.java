package dev.agentpersistence.async;

import dev.agentpersistence.PersistenceException;

/**
 * An {@link AsyncExecutor} refused a call because as many calls as it admits were already running or queued
 * (back-pressure), or because it was closed. Nothing of the call was done; retry later or slow down.
 */
public final class AsyncRejectedException extends PersistenceException {
    public AsyncRejectedException(String message) {
        super(message);
    }
}
