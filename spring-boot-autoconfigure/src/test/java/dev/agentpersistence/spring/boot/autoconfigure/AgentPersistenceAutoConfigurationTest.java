package dev.agentpersistence.spring.boot.autoconfigure;

import static dev.agentpersistence.spring.boot.autoconfigure.Contexts.runner;
import static dev.agentpersistence.spring.boot.autoconfigure.Contexts.runnerWithOnly;
import static dev.agentpersistence.spring.boot.autoconfigure.Contexts.saveOne;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.Tool;
import dev.agentpersistence.metrics.StorageMetricNames;
import dev.agentpersistence.observation.AgentMeterHandler;
import dev.agentpersistence.spi.NoPersistenceStorageProvider;
import dev.agentpersistence.storage.StorageShell;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

class AgentPersistenceAutoConfigurationTest {

    @Test
    void withoutAProviderModuleTheNoOpProviderIsUsed() {
        runnerWithOnly().run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(storage(context)).isInstanceOf(NoPersistenceStorageProvider.class);
            assertThat(context).hasSingleBean(AgentPersistence.class);
        });
    }

    @Test
    void theOnlyProviderModuleIsUsed() {
        runnerWithOnly("inmemory").run(context -> {
            assertThat(storage(context)).isInstanceOf(StorageShell.class);
            var persistence = context.getBean(AgentPersistence.class);
            AgentCheckpoint saved = saveOne(persistence, "only-module");
            assertThat(persistence.latestCheckpoint("only-module")).contains(saved);
        });
    }

    @Test
    void theProviderPropertyChoosesAmongSeveral() {
        assertThat(Contexts.available()).contains("inmemory", "jdbc", "redis", "s3");
        runner().withPropertyValues("agent.persistence.provider=inmemory")
                .run(context -> assertThat(storage(context)).isInstanceOf(StorageShell.class));
    }

    @Test
    void severalProviderModulesWithoutAChoiceFailWithTheirNames() {
        runner().run(context -> assertThat(context)
                .getFailure()
                .rootCause()
                .hasMessageContaining("Several storage providers")
                .hasMessageContaining("agent.persistence.provider"));
    }

    @Test
    void theApplicationsOwnProviderWins() {
        var own = new MapProvider();
        runner().withBean(PersistenceStorageProvider.class, () -> own).run(context -> {
            assertThat(context.getBean(PersistenceStorageProvider.class)).isSameAs(own);
            saveOne(context.getBean(AgentPersistence.class), "own-provider");
            assertThat(own.saved).containsKey("own-provider");
        });
    }

    @Test
    void theApplicationsDataSourceIsReusedWithTheJdbcSettingsOfTheEnvironment() {
        DataSource dataSource = h2("reused");
        runnerWithOnly("jdbc", "inmemory")
                .withPropertyValues("agent.persistence.provider=jdbc", "agent.persistence.jdbc.table-prefix=boot_")
                .withBean(DataSource.class, () -> dataSource)
                .run(context -> {
                    assertThat(storage(context)).isInstanceOf(StorageShell.class);
                    saveOne(context.getBean(AgentPersistence.class), "reused-data-source");
                    assertThat(tables(dataSource)).isNotEmpty().allMatch(name -> name.startsWith("BOOT_"));
                });
    }

    @Test
    void withoutADataSourceTheJdbcProviderOpensItsOwnPool() {
        runnerWithOnly("jdbc")
                .withPropertyValues(
                        "agent.persistence.jdbc.url=jdbc:h2:mem:own;DB_CLOSE_DELAY=-1",
                        "agent.persistence.jdbc.user=sa")
                .run(context -> {
                    assertThat(storage(context)).isInstanceOf(StorageShell.class);
                    saveOne(context.getBean(AgentPersistence.class), "own-pool");
                    assertThat(tables(h2("own"))).isNotEmpty().allMatch(name -> name.startsWith("AGENT_"));
                });
    }

    @Test
    void theApplicationsS3ClientIsReusedWithTheS3SettingsOfTheEnvironment() {
        S3Client client = S3Client.builder()
                .region(Region.US_EAST_1)
                .endpointOverride(URI.create("http://127.0.0.1:1"))
                .credentialsProvider(AnonymousCredentialsProvider.create())
                .build();
        runnerWithOnly("s3", "inmemory")
                .withPropertyValues("agent.persistence.provider=s3", "agent.persistence.s3.bucket=app-bucket")
                .withBean(S3Client.class, () -> client)
                .run(context -> {
                    assertThat(storage(context))
                            .isInstanceOfSatisfying(
                                    StorageShell.class,
                                    s3 -> assertThat(s3.storedForm()
                                                    .orElseThrow()
                                                    .location("agent", "cp"))
                                            .contains("app-bucket"));
                    assertThat(context.getBean(AgentPersistenceHealthIndicator.class)
                                    .health()
                                    .getStatus())
                            .isEqualTo(Status.DOWN);
                });
    }

    @Test
    void theDataSourceIsLeftAloneWhenAnotherProviderIsChosen() {
        runnerWithOnly("jdbc", "inmemory")
                .withPropertyValues("agent.persistence.provider=inmemory")
                .withBean(DataSource.class, () -> h2("unused"))
                .run(context -> assertThat(storage(context)).isInstanceOf(StorageShell.class));
    }

    @Test
    void withAMeterRegistryTheProviderAndTheFacadeAreMetered() {
        runnerWithOnly("inmemory")
                .withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class))
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .run(context -> {
                    assertThat(context).hasSingleBean(AgentMeterHandler.class);
                    var persistence = context.getBean(AgentPersistence.class);
                    assertThat(persistence.storage()).isSameAs(context.getBean(PersistenceStorageProvider.class));
                    saveOne(persistence, "metered");
                    var registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.find(StorageMetricNames.CHECKPOINT_SAVE)
                                    .tag(StorageMetricNames.TAG_PROVIDER, "inmemory")
                                    .timer())
                            .isNotNull()
                            .satisfies(timer -> assertThat(timer.count()).isEqualTo(1));
                    assertThat(registry.find("agent.persistence.checkpoint.create")
                                    .timer())
                            .isNotNull();
                });
    }

    @Test
    void withoutAMeterRegistryNothingIsMetered() {
        runnerWithOnly("inmemory").run(context -> assertThat(context).doesNotHaveBean(AgentMeterHandler.class));
    }

    @Test
    void rollbackToolPairBeansMakeTheRegistry() {
        Tool create = Tool.of("createUser", args -> args);
        Tool delete = Tool.of("deleteUser", args -> args);
        runnerWithOnly("inmemory")
                .withBean(RollbackToolPair.class, () -> RollbackToolPair.of(create, delete))
                .run(context -> {
                    var registry = context.getBean(RollbackToolRegistry.class);
                    assertThat(registry.inverseOf("createUser")).contains(delete);
                    assertThat(context.getBean(AgentPersistence.class).rollbackTools())
                            .isSameAs(registry);
                });
    }

    @Test
    void theApplicationsOwnFacadeWins() {
        runnerWithOnly("inmemory")
                .withBean(
                        "myPersistence",
                        AgentPersistence.class,
                        () -> AgentPersistence.builder()
                                .storage(new MapProvider())
                                .build())
                .run(context ->
                        assertThat(context).getBean(AgentPersistence.class).isSameAs(context.getBean("myPersistence")));
    }

    @Test
    void theProviderIsClosedWithTheContext() {
        var closed = new ArrayList<PersistenceStorageProvider<?>>();
        runnerWithOnly("inmemory").run(context -> closed.add(storage(context)));
        assertThat(closed)
                .singleElement()
                .satisfies(provider -> org.assertj.core.api.Assertions.assertThatThrownBy(
                                () -> provider.getCheckpoints("closed"))
                        .isInstanceOf(IllegalStateException.class));
    }

    static PersistenceStorageProvider<?> storage(AssertableApplicationContext context) {
        return context.getBean(PersistenceStorageProvider.class);
    }

    static DataSource h2(String name) {
        var dataSource = new JdbcDataSource();
        dataSource.setURL("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1");
        dataSource.setUser("sa");
        return dataSource;
    }

    private static List<String> tables(DataSource dataSource) throws SQLException {
        var names = new ArrayList<String>();
        try (var connection = dataSource.getConnection();
                var rows = connection
                        .createStatement()
                        .executeQuery(
                                "SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = 'PUBLIC'")) {
            while (rows.next()) {
                names.add(rows.getString(1));
            }
        }
        return names;
    }

    /** A provider of the application's own, not a storage shell. */
    static class MapProvider implements PersistenceStorageProvider<CheckpointFilter> {
        final Map<String, List<AgentCheckpoint>> saved = new ConcurrentHashMap<>();

        @Override
        public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
            return List.copyOf(saved.getOrDefault(agentId, List.of()));
        }

        @Override
        public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
            saved.computeIfAbsent(agentId, id -> new ArrayList<>()).add(checkpoint);
        }

        @Override
        public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
            var all = saved.getOrDefault(agentId, List.of());
            return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
        }
    }
}
