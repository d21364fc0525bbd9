package dev.agentpersistence.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.spi.ProviderConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class RedisStorageConfigTest {

    @Test
    void defaults() {
        var config = RedisStorageConfig.ofDefaults();
        assertThat(config.uri()).isEqualTo("redis://localhost:6379");
        assertThat(config.isCluster()).isFalse();
        assertThat(config.keyPrefix()).isEqualTo("agent-persistence:");
        assertThat(config.poolTestOnBorrow()).isTrue();
        assertThat(RedisStorageConfig.from(ProviderConfig.empty()).toString()).isEqualTo(config.toString());
    }

    @Test
    void readsEveryKeyIncludingTheEnvironmentForm() {
        var env = Map.of(
                "AGENT_PERSISTENCE_REDIS_URI", "rediss://app:pw@redis.example:6380/2",
                "AGENT_PERSISTENCE_REDIS_KEY_PREFIX", "app:",
                "AGENT_PERSISTENCE_REDIS_POOL_MAX_TOTAL", "32",
                "AGENT_PERSISTENCE_REDIS_POOL_MAX_IDLE", "10",
                "AGENT_PERSISTENCE_REDIS_POOL_MIN_IDLE", "2",
                "AGENT_PERSISTENCE_REDIS_POOL_MAX_WAIT", "250ms",
                "AGENT_PERSISTENCE_REDIS_POOL_TEST_ON_BORROW", "false");
        var properties = new Properties();
        properties.setProperty("agent.persistence.redis.connect-timeout", "3s");
        properties.setProperty("agent.persistence.redis.socket-timeout", "PT4S");
        properties.setProperty("agent.persistence.redis.cluster.max-attempts", "7");
        var config = RedisStorageConfig.from(ProviderConfig.fromEnvironment(env, properties));

        assertThat(config.uri()).isEqualTo("rediss://app:pw@redis.example:6380/2");
        assertThat(config.endpoint()).isEqualTo("rediss://app:****@redis.example:6380/2");
        assertThat(config.toString()).doesNotContain(":pw@");
        assertThat(config.keyPrefix()).isEqualTo("app:");
        assertThat(config.poolMaxTotal()).isEqualTo(32);
        assertThat(config.poolMaxIdle()).isEqualTo(10);
        assertThat(config.poolMinIdle()).isEqualTo(2);
        assertThat(config.poolMaxWait()).isEqualTo(Duration.ofMillis(250));
        assertThat(config.poolTestOnBorrow()).isFalse();
        assertThat(config.connectTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(config.socketTimeout()).isEqualTo(Duration.ofSeconds(4));
        assertThat(config.clusterMaxAttempts()).isEqualTo(7);
    }

    @Test
    void clusterNodesSelectClusterMode() {
        var config = RedisStorageConfig.from(
                ProviderConfig.of(Map.of("agent.persistence.redis.cluster-nodes", " 10.0.0.1:7000, 10.0.0.2:7001 ,")));
        assertThat(config.isCluster()).isTrue();
        assertThat(config.clusterNodes()).containsExactly("10.0.0.1:7000", "10.0.0.2:7001");
        assertThat(config.endpoint()).isEqualTo("cluster 10.0.0.1:7000,10.0.0.2:7001");
    }

    @Test
    void rejectsInvalidValues() {
        var b = RedisStorageConfig.custom();
        assertThatThrownBy(() -> b.uri("http://localhost")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.uri("redis://:secret@/0"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("secret");
        assertThatThrownBy(() -> b.uri("redis://localhost/x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.keyPrefix("a{b}:"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("hash tag");
        assertThatThrownBy(() -> b.keyPrefix("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.poolMaxTotal(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.poolMinIdle(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.connectTimeout(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.clusterNodes(List.of("nohost"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.clusterNodes(List.of("host:99999"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.clusterMaxAttempts(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.uri(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> RedisStorageConfig.custom().poolMaxIdle(20).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pool.max-total");
        assertThatThrownBy(() -> RedisStorageConfig.custom().poolMinIdle(9).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pool.max-idle");
    }

    @Test
    void theFactoryReportsBadSettingsAsPersistenceException() {
        var factory = new RedisStorageProviderFactory();
        assertThat(factory.name()).isEqualTo("redis");
        assertThatThrownBy(() -> factory.create(ProviderConfig.of(Map.of("agent.persistence.redis.key-prefix", "{x}"))))
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("agent.persistence.redis.key-prefix")
                .hasMessageContaining("hash tag");
        assertThatThrownBy(
                        () -> factory.create(ProviderConfig.of(Map.of("agent.persistence.redis.pool.max-idle", "99"))))
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("Invalid Redis settings");
        assertThatThrownBy(() -> factory.create(ProviderConfig.of(Map.of("agent.persistence.ttl", "soon"))))
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("agent.persistence.ttl");
    }

    @Test
    void copiesAreIndependent() {
        var base = RedisStorageConfig.custom().keyPrefix("a:").poolMaxTotal(16).build();
        var copy = base.toBuilder().keyPrefix("b:").build();
        assertThat(base.keyPrefix()).isEqualTo("a:");
        assertThat(copy.keyPrefix()).isEqualTo("b:");
        assertThat(copy.poolMaxTotal()).isEqualTo(16);
    }
}
