package dev.agentpersistence.lease;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentNamespace;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.PersistenceStorageProvider;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leases on named resources, kept in any {@link PersistenceStorageProvider}: the record of a lease is an agent of the
 * namespace {@link #NAMESPACE}, and every grant, renewal and release is the next version of it, saved with the
 * provider's insert-if-absent. Of two workers that read the same record and write the next version, exactly one
 * succeeds; so at most one owner holds a live lease, on every provider that passes the conformance kit.
 *
 * <p>A lease ends at its {@link Lease#expiresAt()}, judged by the clock of whoever asks next: keep the time to live
 * well above the clocks' skew and the holder's pauses. A lease that ran out stays its holder's until someone else takes
 * it; taking it grants a new {@link Lease#token() fencing token}. The lease alone cannot stop a paused holder from
 * writing after it lost the lease: the writes it guards must also compare-and-set their own heads (pipelines do).
 *
 * <p>Older versions of a record are deleted after each write where the provider can delete (best effort), so a record
 * keeps one or a few versions. Thread-safe.
 */
public final class Leases {
    /** The namespace of lease records. */
    public static final AgentNamespace NAMESPACE = AgentNamespace.of("lease");

    private static final String OWNER = "lease.owner";
    private static final String TOKEN = "lease.token";
    private static final String EXPIRES_AT = "lease.expiresAt";
    private static final int MAX_ATTEMPTS = 5;
    private static final Logger LOG = LoggerFactory.getLogger(Leases.class);

    private final PersistenceStorageProvider<?> storage;
    private final Clock clock;

    private Leases(PersistenceStorageProvider<?> storage, Clock clock) {
        this.storage = storage;
        this.clock = clock;
    }

    /** Leases kept in {@code storage}, judged by {@code clock}. */
    public static Leases of(PersistenceStorageProvider<?> storage, Clock clock) {
        return new Leases(Objects.requireNonNull(storage, "storage"), Objects.requireNonNull(clock, "clock"));
    }

    /** The newest grant of {@code name}, live or not; empty when it was never leased. */
    public Optional<Lease> current(String name) {
        return read(name, agentId(name));
    }

    /**
     * Grants {@code owner} the lease on {@code name} for {@code ttl}, with a new fencing token, when nobody else holds
     * a live one. An owner that asks again while it holds the lease gets a new grant too (its older grant is fenced):
     * an owner id names one holder.
     *
     * @throws LeaseHeldException when another owner holds a live lease
     */
    public Lease acquire(String name, String owner, Duration ttl) {
        return grant(name, owner, ttl).lease();
    }

    /**
     * As {@link #acquire}, and tells which grant the new one replaced (for example to see how long after the end of a
     * dead holder's lease the name was taken over), without another read.
     *
     * @throws LeaseHeldException when another owner holds a live lease
     */
    public LeaseGrant grant(String name, String owner, Duration ttl) {
        Objects.requireNonNull(owner, "owner");
        requirePositive(ttl);
        String agentId = agentId(name);
        for (int attempt = 0; ; attempt++) {
            Optional<AgentCheckpoint> head = storage.getLatestCheckpoint(agentId);
            Optional<Lease> latest = head.map(record -> parse(name, record));
            Instant now = clock.instant();
            if (latest.isPresent()
                    && latest.get().isLiveAt(now)
                    && !latest.get().owner().equals(owner)) {
                throw new LeaseHeldException(
                        name, latest.get().owner(), latest.get().expiresAt());
            }
            long version = latest.map(lease -> lease.version() + 1).orElse(0L);
            var grant = new Lease(name, owner, version, version, now.plus(ttl));
            if (write(agentId, grant, now, head)) {
                return new LeaseGrant(grant, latest);
            }
            if (attempt + 1 >= MAX_ATTEMPTS) {
                throw new LeaseHeldException(name, "another worker", now.plus(ttl));
            }
        }
    }

    /**
     * Extends {@code lease} by {@code ttl} from now, keeping its token.
     *
     * @throws LeaseLostException when the lease was granted to another owner (or released) since
     */
    public Lease renew(Lease lease, Duration ttl) {
        Objects.requireNonNull(lease, "lease");
        requirePositive(ttl);
        String agentId = agentId(lease.name());
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            Optional<AgentCheckpoint> head = storage.getLatestCheckpoint(agentId);
            Lease latest = requireHeld(lease, head.map(record -> parse(lease.name(), record)));
            Instant now = clock.instant();
            var renewed = new Lease(lease.name(), lease.owner(), lease.token(), latest.version() + 1, now.plus(ttl));
            if (write(agentId, renewed, now, head)) {
                return renewed;
            }
        }
        throw new LeaseLostException(
                lease.name(), "lease on '" + lease.name() + "' could not be renewed: other writers kept changing it");
    }

    /** Ends {@code lease} now, so another owner can take it at once; does nothing when it was already lost. */
    public void release(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        String agentId = agentId(lease.name());
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            Optional<AgentCheckpoint> head = storage.getLatestCheckpoint(agentId);
            Optional<Lease> latest = head.map(record -> parse(lease.name(), record));
            if (latest.isEmpty() || latest.get().token() != lease.token()) {
                return;
            }
            Instant now = clock.instant();
            var released = new Lease(
                    lease.name(), lease.owner(), lease.token(), latest.get().version() + 1, now);
            if (write(agentId, released, now, head)) {
                return;
            }
        }
    }

    private static Lease requireHeld(Lease lease, Optional<Lease> latest) {
        if (latest.isEmpty() || latest.get().token() != lease.token()) {
            throw new LeaseLostException(
                    lease.name(),
                    "lease on '" + lease.name() + "' (token " + lease.token() + ") was lost: "
                            + latest.map(l -> "now held by '" + l.owner() + "' with token " + l.token())
                                    .orElse("its record is gone"));
        }
        return latest.get();
    }

    /**
     * Saves {@code lease} right after {@code head}, the record it was decided on; {@code false} when another writer
     * changed the record first.
     */
    private boolean write(String agentId, Lease lease, Instant now, Optional<AgentCheckpoint> head) {
        var record = AgentCheckpoint.builder()
                .checkpointId("lease-" + lease.version())
                .agentId(agentId)
                .version(lease.version())
                .createdAt(now)
                .nodeId("lease")
                .metadata(Map.of(
                        OWNER, lease.owner(),
                        TOKEN, Long.toString(lease.token()),
                        EXPIRES_AT, lease.expiresAt().toString()))
                .build();
        try {
            // on the head it read: a writer that read the record long ago never lands in a version freed by trimming
            storage.saveCheckpointAfter(agentId, head, record);
        } catch (CheckpointConflictException e) {
            return false;
        }
        trimBefore(agentId, lease.version());
        return true;
    }

    private void trimBefore(String agentId, long version) {
        if (version == 0) {
            return;
        }
        try {
            storage.deleteCheckpointsBefore(agentId, version);
        } catch (RuntimeException e) {
            LOG.debug("Could not delete lease versions of '{}' before {}: {}", agentId, version, e.toString());
        }
    }

    private Optional<Lease> read(String name, String agentId) {
        return storage.getLatestCheckpoint(agentId).map(record -> parse(name, record));
    }

    private static Lease parse(String name, AgentCheckpoint record) {
        Map<String, String> metadata = record.metadata();
        String owner = metadata.get(OWNER);
        String token = metadata.get(TOKEN);
        String expiresAt = metadata.get(EXPIRES_AT);
        if (owner == null || token == null || expiresAt == null) {
            throw corrupt(record, "it lacks one of " + OWNER + ", " + TOKEN + ", " + EXPIRES_AT, null);
        }
        try {
            return new Lease(name, owner, Long.parseLong(token), record.version(), Instant.parse(expiresAt));
        } catch (IllegalArgumentException | DateTimeParseException e) {
            throw corrupt(record, e.getMessage(), e);
        }
    }

    private static CorruptCheckpointException corrupt(AgentCheckpoint record, String why, Throwable cause) {
        return new CorruptCheckpointException(
                record.agentId(), record.checkpointId(), "lease metadata", "not a lease record: " + why, cause);
    }

    private static String agentId(String name) {
        return NAMESPACE.agentId(name, "lease name");
    }

    private static void requirePositive(Duration ttl) {
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("a lease's time to live must be positive, got " + ttl);
        }
    }

    @Override
    public String toString() {
        return "Leases[" + storage + "]";
    }
}
