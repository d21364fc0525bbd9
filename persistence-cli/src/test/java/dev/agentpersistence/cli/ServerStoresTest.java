package dev.agentpersistence.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import dev.agentpersistence.tck.TestServices;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * The inspecting commands over real PostgreSQL and Redis servers (located like every module's tests), seeded with the
 * same data as the SQLite tests; each run in its own tables and keys.
 */
class ServerStoresTest {
    private static final String RUN = Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36);

    @Test
    void postgresql() {
        String prefix = "cli_" + RUN + "_";
        inspect(TestServices.postgresUrl(null), "agent.persistence.jdbc.table-prefix", prefix);
    }

    @Test
    void redis() {
        String prefix = "agent-persistence-cli:" + RUN + ":";
        inspect(TestServices.redisUri(null), "agent.persistence.redis.key-prefix", prefix);
    }

    private static void inspect(String uri, String isolationKey, String isolation) {
        var storage = StorageUri.parse(uri, ProviderConfig.of(Map.of(isolationKey, isolation)));
        try (var provider = storage.open()) {
            Fixtures.seed(provider);
        }
        try {
            inspect(uri, isolationKey + "=" + isolation);
        } finally {
            try (var provider = storage.open()) {
                provider.listAgents().forEach(provider::deleteCheckpoints);
            }
        }
    }

    private static void inspect(String uri, String isolation) {
        List<String> store = List.of("--store", uri, "--set", isolation);

        var agents = run(store, "agents", "--json");
        assertThat(agents.exitCode()).as("%s", agents).isZero();
        assertThat(agents.json()).hasSize(2);
        assertThat(agents.json().get(1).get("checkpoints").asLong()).isEqualTo(3);
        assertThat(agents.json().get(1).get("bytes").asLong()).isPositive();

        var list = run(store, "list", "support");
        assertThat(list.exitCode()).as("%s", list).isZero();
        assertThat(list.out().lines().toList()).hasSize(4);

        var show = run(store, "show", "support", "1");
        assertThat(show.out())
                .contains("version  1", "  -> [3] tool result lookup_order (call call-1): shipped on March 2");

        var diff = run(store, "diff", "support", "1", "2", "--json");
        assertThat(diff.json().get("messagesAdded")).hasSize(1);

        var verify = run(store, "verify");
        assertThat(verify.exitCode()).as("%s", verify).isZero();
        assertThat(verify.out()).contains("4 checkpoints readable, 0 unreadable");

        var stats = run(store, "stats", "--json");
        assertThat(stats.json().get("checkpoints").asLong()).isEqualTo(4);

        var sweep = run(store, "sweep", "--keep-latest", "2", "--apply", "--json");
        assertThat(sweep.json().get("checkpointsDeleted").asInt()).isEqualTo(1);
        assertThat(run(store, "list", "support", "--json").json()).hasSize(2);

        var missing = run(store, "show", "support", "0");
        assertThat(missing.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
        assertThat(missing.err()).contains("no checkpoint version 0");
    }

    private static CliRun run(List<String> store, String... args) {
        var all = new java.util.ArrayList<>(List.of(args));
        all.addAll(store);
        return CliRun.of(all.toArray(String[]::new));
    }
}
