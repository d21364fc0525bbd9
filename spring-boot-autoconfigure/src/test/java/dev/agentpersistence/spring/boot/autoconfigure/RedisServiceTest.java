package dev.agentpersistence.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.TestServices;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * The starter against a real Redis ({@link TestServices#redisUri}: skipped when there is none, failing instead when
 * services are required), once with the provider's own connection from {@code agent.persistence.redis.uri} and once
 * over the application's client.
 */
class RedisServiceTest {

    @Test
    void savesAndReadsWithTheProvidersOwnConnectionAndReportsUp() {
        String uri = TestServices.redisUri(null);
        check(Contexts.runner().withPropertyValues("agent.persistence.redis.uri=" + uri));
    }

    @Test
    void savesAndReadsOverTheApplicationsClient() {
        String uri = TestServices.redisUri(null);
        try (UnifiedJedis client = RedisClient.create(URI.create(uri))) {
            check(Contexts.runner().withBean(UnifiedJedis.class, () -> client));
        }
    }

    private static void check(ApplicationContextRunner runner) {
        runner.withPropertyValues(
                        "agent.persistence.provider=redis", "agent.persistence.redis.key-prefix=boot-starter:")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(AgentPersistenceAutoConfigurationTest.storage(context))
                            .isInstanceOf(StorageShell.class);
                    var persistence = context.getBean(AgentPersistence.class);
                    String agentId = "boot-redis-" + System.nanoTime();
                    var saved = Contexts.saveOne(persistence, agentId);
                    assertThat(persistence.latestCheckpoint(agentId)).contains(saved);
                    assertThat(context.getBean(AgentPersistenceHealthIndicator.class)
                                    .health()
                                    .getStatus())
                            .isEqualTo(Status.UP);
                    persistence.storage().deleteCheckpoints(agentId);
                });
    }
}
