package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.lease.Lease;
import dev.agentpersistence.lease.LeaseHeldException;
import dev.agentpersistence.lease.LeaseLostException;
import dev.agentpersistence.lease.Leases;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Leases over the provider ({@link Leases}): of racing workers exactly one gets a live lease, a lease that ran out is
 * taken over with a larger fencing token, and its former holder can neither renew nor release it.
 */
abstract class LeaseContract extends Contract {
    private static final Duration TTL = Duration.ofSeconds(30);

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-06-01T12:00:00Z"));
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    };

    LeaseContract(KitSession session) {
        super(session);
    }

    @Test
    @DisplayName("of 16 workers acquiring one lease at once exactly one gets it; the others learn who holds it")
    void racingAcquirersGetOneLease() {
        String name = agent("lease-race");
        var leases = Leases.of(provider(), clock);
        var outcomes = Race.run(16, racer -> leases.acquire(name, "worker-" + racer, TTL));

        assertThat(outcomes).filteredOn(Race.Outcome::succeeded).hasSize(1);
        String winner = "worker-"
                + outcomes.stream()
                        .filter(Race.Outcome::succeeded)
                        .findFirst()
                        .orElseThrow()
                        .racer();
        assertThat(outcomes)
                .filteredOn(outcome -> !outcome.succeeded())
                .allSatisfy(outcome -> assertThat(outcome.failure())
                        .isInstanceOf(LeaseHeldException.class)
                        .satisfies(e ->
                                assertThat(((LeaseHeldException) e).holder()).isEqualTo(winner)));
        assertThat(leases.current(name)).map(Lease::owner).contains(winner);
    }

    @Test
    @DisplayName("a lease that ran out is taken over with a larger token; its former holder can neither renew nor "
            + "release it")
    void anExpiredLeaseIsTakenOverAndFencesItsFormerHolder() {
        String name = agent("lease-takeover");
        var leases = Leases.of(provider(), clock);
        Lease first = leases.acquire(name, "a", TTL);
        assertThatThrownBy(() -> leases.acquire(name, "b", TTL)).isInstanceOf(LeaseHeldException.class);

        now.set(now.get().plus(TTL).plusMillis(1));
        Lease second =
                Leases.of(sharesStorage() ? newProvider() : provider(), clock).acquire(name, "b", TTL);

        assertThat(second.token()).isGreaterThan(first.token());
        assertThatThrownBy(() -> leases.renew(first, TTL))
                .isInstanceOf(LeaseLostException.class)
                .hasMessageContaining("now held by 'b'");
        leases.release(first);
        assertThat(leases.current(name)).contains(second);
    }

    @Test
    @DisplayName("renewing keeps the token and moves the expiry; releasing lets another worker take it at once")
    void renewAndRelease() {
        String name = agent("lease-renew");
        var leases = Leases.of(provider(), clock);
        Lease lease = leases.acquire(name, "a", TTL);
        for (int i = 0; i < 20; i++) {
            now.set(now.get().plusSeconds(10));
            lease = leases.renew(lease, TTL);
        }
        assertThat(lease.token()).isZero();
        assertThat(lease.expiresAt()).isEqualTo(now.get().plus(TTL));
        assertThatThrownBy(() -> leases.acquire(name, "b", TTL)).isInstanceOf(LeaseHeldException.class);

        leases.release(lease);
        Lease taken = leases.acquire(name, "b", TTL);
        assertThat(taken.owner()).isEqualTo("b");
        assertThat(taken.token()).isGreaterThan(lease.token());
        String record = Leases.NAMESPACE.agentId(name);
        optional("deleteCheckpointsBefore", () -> provider().deleteCheckpointsBefore(record, 0));
        assertThat(provider().getCheckpoints(record))
                .as("older versions of the record are deleted")
                .hasSizeLessThanOrEqualTo(2);
    }
}
