package dev.agentpersistence.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.TestServices;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A whole Spring Boot application (every auto-configuration on the test class path) with
 * {@code agent.persistence.redis.uri} pointing at a real Redis ({@link TestServices#redisUri}: skipped when there is
 * none, failing instead when services are required).
 */
@SpringBootTest(
        classes = RedisSpringBootTest.Application.class,
        properties = {"agent.persistence.provider=redis", "agent.persistence.redis.key-prefix=boot-app:"})
class RedisSpringBootTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {}

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        registry.add("agent.persistence.redis.uri", () -> TestServices.redisUri(null));
    }

    @Autowired
    AgentPersistence persistence;

    @Autowired
    PersistenceStorageProvider<?> storage;

    @Autowired
    AgentPersistenceHealthIndicator health;

    @Test
    void theApplicationStoresInRedisAndReportsUp() {
        assertThat(storage).isInstanceOf(StorageShell.class);
        String agentId = "boot-app-redis-" + System.nanoTime();
        var saved = Contexts.saveOne(persistence, agentId);
        assertThat(persistence.latestCheckpoint(agentId)).contains(saved);
        assertThat(health.health().getStatus()).isEqualTo(Status.UP);
        persistence.storage().deleteCheckpoints(agentId);
    }
}
