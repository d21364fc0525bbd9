package dev.agentpersistence.file.internal;

import dev.agentpersistence.StorageUnavailableException;
import java.nio.file.Path;

/** Turns file system errors into {@link StorageUnavailableException}s that name the path. */
public final class IoFailures {
    private IoFailures() {}

    /** "File storage: cannot {@code action} {@code path}: reason", with {@code cause} kept. */
    public static StorageUnavailableException unavailable(String action, Path path, Exception cause) {
        String reason = cause.getMessage() == null
                ? cause.getClass().getSimpleName()
                : cause.getClass().getSimpleName() + ": " + cause.getMessage();
        return new StorageUnavailableException(
                "File storage: cannot " + action + " " + path + " (" + reason + ")", cause);
    }
}
