package dev.agentpersistence.jdbc.internal;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/** Lets one write at a time through to a database that takes one writer at a time (SQLite); others pass freely. */
final class WriteSerializer {
    private final ReentrantLock writeLock = new ReentrantLock(true);
    private final DatabaseIdentity identity;

    WriteSerializer(DatabaseIdentity identity) {
        this.identity = identity;
    }

    /** Runs {@code attempt} holding the write lock when it writes to a database that serializes writes. */
    <T> T run(boolean write, Supplier<T> attempt) {
        if (write && identity.dialect().serializesWrites()) {
            writeLock.lock();
            try {
                return attempt.get();
            } finally {
                writeLock.unlock();
            }
        }
        return attempt.get();
    }
}
