package dev.agentpersistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.lease.LeaseHeldException;
import dev.agentpersistence.lease.Leases;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the conformance kit's lease group does not cover: refused arguments and a planted record. */
class LeasesTest {
    private final HeapTestStorage storage = new HeapTestStorage();
    private final Leases leases =
            Leases.of(storage, Clock.fixed(Instant.parse("2026-06-01T00:00:00Z"), ZoneOffset.UTC));

    @Test
    void aTimeToLiveMustBePositiveAndANameMustFitItsNamespace() {
        assertThatThrownBy(() -> leases.acquire("run", "a", Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("positive");
        assertThatThrownBy(() -> leases.acquire("r".repeat(Identifiers.MAX_LENGTH), "a", Duration.ofSeconds(1)))
                .isInstanceOf(InvalidIdentifierException.class)
                .hasMessageContaining("lease name");
    }

    @Test
    void aPlantedRecordThatIsNotALeaseIsReportedAsCorrupt() {
        String agentId = Leases.NAMESPACE.agentId("run");
        storage.saveCheckpoint(
                agentId,
                AgentCheckpoint.builder()
                        .checkpointId("x")
                        .agentId(agentId)
                        .version(0)
                        .createdAt(Instant.EPOCH)
                        .metadata(Map.of("lease.owner", "mallory", "lease.token", "-1", "lease.expiresAt", "never"))
                        .build());

        assertThatThrownBy(() -> leases.current("run"))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("not a lease record");
        assertThatThrownBy(() -> leases.acquire("run", "a", Duration.ofSeconds(5)))
                .isInstanceOf(CorruptCheckpointException.class);
    }

    @Test
    void theHolderIsNamedWhenTheLeaseIsHeld() {
        leases.acquire("run", "worker-1", Duration.ofSeconds(30));
        assertThatThrownBy(() -> leases.acquire("run", "worker-2", Duration.ofSeconds(30)))
                .isInstanceOf(LeaseHeldException.class)
                .hasMessage("'run' is leased by 'worker-1' until 2026-06-01T00:00:30Z");
    }

    @Test
    void aGrantTellsWhichGrantItReplaced() {
        var first = leases.grant("job", "worker-1", Duration.ofSeconds(30));
        assertThat(first.previous()).isEmpty();
        leases.release(first.lease());
        var second = leases.grant("job", "worker-2", Duration.ofSeconds(30));
        assertThat(second.previous()).hasValueSatisfying(previous -> {
            assertThat(previous.owner()).isEqualTo("worker-1");
            assertThat(previous.token()).isEqualTo(first.lease().token());
            assertThat(previous.isLiveAt(Instant.parse("2026-06-01T00:00:00Z"))).isFalse();
        });
        assertThat(second.lease().token()).isGreaterThan(first.lease().token());
    }
}
