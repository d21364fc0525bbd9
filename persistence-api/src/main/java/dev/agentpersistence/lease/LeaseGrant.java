package dev.agentpersistence.lease;

import java.util.Objects;
import java.util.Optional;

/**
 * A lease just granted by {@link Leases#grant}, with the grant of the same name it replaced (live or run out, the
 * holder's own or another's), read as the write's expected predecessor.
 *
 * @param lease the lease granted
 * @param previous the newest grant of the name before it; empty when the name was never leased
 */
public record LeaseGrant(Lease lease, Optional<Lease> previous) {
    /** Checks the components. */
    public LeaseGrant {
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(previous, "previous");
    }
}
