package dev.agentpersistence.lease;

import java.time.Instant;
import java.util.Objects;

/**
 * The right to work on one named resource (a pipeline run, a queue item) until {@link #expiresAt}, as granted by
 * {@link Leases}.
 *
 * @param name the resource leased
 * @param owner who holds it (a worker's id)
 * @param token the fencing token: the same for every renewal of one grant, larger for every later grant of the same
 *     name while its lease record exists
 * @param version the version of the lease record this lease was read or written as; the next write of the record must
 *     take the version after it
 * @param expiresAt when the lease ends unless it is renewed
 */
public record Lease(String name, String owner, long token, long version, Instant expiresAt) {
    /** Checks the components. */
    public Lease {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(expiresAt, "expiresAt");
        if (token < 0 || version < token) {
            throw new IllegalArgumentException(
                    "token " + token + " and version " + version + " must satisfy " + "0 <= token <= version");
        }
    }

    /** Whether the lease still runs at {@code now}. */
    public boolean isLiveAt(Instant now) {
        return now.isBefore(expiresAt);
    }
}
