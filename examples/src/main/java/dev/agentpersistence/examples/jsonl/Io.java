package dev.agentpersistence.examples.jsonl;

import dev.agentpersistence.StorageUnavailableException;
import java.io.IOException;

/** File operations of the example backend, with {@link IOException} as {@link StorageUnavailableException}. */
final class Io {
    private Io() {
    }

    /** A file operation. */
    interface Action<T> {
        T run() throws IOException;
    }

    static <T> T run(Action<T> action) {
        try {
            return action.run();
        } catch (IOException e) {
            throw new StorageUnavailableException("JSON Lines storage failed: " + e, e);
        }
    }
}
