package dev.agentpersistence.benchmarks.adk;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.adk.sessions.InMemorySessionService;
import dev.agentpersistence.adk.AgentPersistenceSessionService;
import dev.agentpersistence.inmemory.InMemoryStorage;
import org.junit.jupiter.api.Test;

class AdkAppendWorkloadTest {
    @Test
    void adksServiceAndOursHoldTheSameSessionAfterTheWorkload() {
        var adk = AdkAppendWorkload.run(new InMemorySessionService(), "s", 20);
        AdkAppendWorkload.Result ours;
        try (var storage = InMemoryStorage.builder().build()) {
            ours = AdkAppendWorkload.run(AgentPersistenceSessionService.of(storage), "s", 20);
        }
        assertThat(adk.appendNanos()).hasSize(20);
        assertThat(ours.appendNanos()).hasSize(20);
        // the same events and state read back; event ids are random but of one length
        assertThat(ours.sessionJsonBytes()).isEqualTo(adk.sessionJsonBytes());
        assertThat(ours.percentileMillis(99)).isGreaterThanOrEqualTo(ours.percentileMillis(50));
        var times = new AdkAppendWorkload.Result(new long[] {4_000_000, 1_000_000, 3_000_000, 2_000_000, 9_000_000}, 0);
        assertThat(times.medianMillis(0, 4)).isEqualTo(2.0);
        assertThat(times.medianMillis(3, 5)).isEqualTo(2.0);
        assertThat(times.medianMillis(4, 4)).isZero();
    }
}
