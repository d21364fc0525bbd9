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
    }
}
