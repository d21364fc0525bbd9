package dev.agentpersistence.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.inmemory.InMemoryStorage;
import dev.agentpersistence.metrics.StorageMetricNames;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.springai.AgentPersistenceChatMemoryRepository;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.memory.InMemoryChatMemoryRepository;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.model.chat.memory.autoconfigure.ChatMemoryAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The Spring AI {@link ChatMemoryRepository} bean, next to Spring AI's own chat memory auto-configuration. */
class ChatMemoryAutoConfigurationTest {

    /** Ours and Spring AI's auto-configurations, with only the in-memory provider module. */
    private static ApplicationContextRunner runner() {
        return Contexts.runnerWithOnly("inmemory")
                .withConfiguration(AutoConfigurations.of(
                        AgentPersistenceChatMemoryAutoConfiguration.class, ChatMemoryAutoConfiguration.class));
    }

    @Test
    void springAisChatMemoryKeepsConversationsInTheStorageProvider() {
        runner().run(context -> {
            assertThat(context).hasSingleBean(ChatMemoryRepository.class);
            assertThat(context.getBean(ChatMemoryRepository.class))
                    .isInstanceOf(AgentPersistenceChatMemoryRepository.class);

            context.getBean(ChatMemory.class).add("order-42", new UserMessage("Where is my parcel?"));

            var storage = context.getBean(PersistenceStorageProvider.class);
            assertThat(storage.listAgents())
                    .contains(AgentPersistenceChatMemoryRepository.NAMESPACE.agentId("order-42"));
            assertThat(context.getBean(ChatMemoryRepository.class).findConversationIds())
                    .containsExactly("order-42");
        });
    }

    @Test
    void chatMemoryOperationsAreObservedIntoTheApplicationsRegistry() {
        var observed = new CopyOnWriteArrayList<String>();
        var registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new ObservationHandler<Observation.Context>() {
            @Override
            public void onStart(Observation.Context context) {
                observed.add(context.getName() + " "
                        + context.getLowCardinalityKeyValue("operation").getValue());
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return context.getName().equals(StorageMetricNames.CONVERSATION);
            }
        });
        runner().withBean(ObservationRegistry.class, () -> registry).run(context -> {
            var repository = context.getBean(ChatMemoryRepository.class);
            repository.saveAll("order-7", List.of(new UserMessage("Where is my parcel?")));
            assertThat(repository.findByConversationId("order-7")).hasSize(1);
            repository.deleteByConversationId("order-7");

            assertThat(observed)
                    .containsExactly(
                            StorageMetricNames.CONVERSATION + " replace",
                            StorageMetricNames.CONVERSATION + " load",
                            StorageMetricNames.CONVERSATION + " delete");
        });
    }

    @Test
    void theApplicationsOwnRepositoryWins() {
        var own = new InMemoryChatMemoryRepository();
        runner().withBean(ChatMemoryRepository.class, () -> own).run(context -> {
            assertThat(context).doesNotHaveBean(AgentPersistenceChatMemoryRepository.class);
            assertThat(context.getBean(ChatMemoryRepository.class)).isSameAs(own);
        });
    }

    @Test
    void theApplicationsOwnProviderIsUsed() {
        var own = InMemoryStorage.builder().build();
        Contexts.runnerWithOnly()
                .withConfiguration(AutoConfigurations.of(AgentPersistenceChatMemoryAutoConfiguration.class))
                .withBean("myStorage", PersistenceStorageProvider.class, () -> own)
                .run(context -> {
                    context.getBean(ChatMemoryRepository.class).saveAll("c", List.of(new UserMessage("hi")));
                    assertThat(own.listAgents())
                            .containsExactly(AgentPersistenceChatMemoryRepository.NAMESPACE.agentId("c"));
                });
    }

    @Test
    void withTheNoOpProviderSpringAisInMemoryRepositoryStays() {
        Contexts.runnerWithOnly()
                .withConfiguration(AutoConfigurations.of(
                        AgentPersistenceChatMemoryAutoConfiguration.class, ChatMemoryAutoConfiguration.class))
                .run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(AgentPersistenceChatMemoryRepository.class);
                    assertThat(context.getBean(ChatMemoryRepository.class))
                            .isInstanceOf(InMemoryChatMemoryRepository.class);
                });
    }

    @Test
    void withoutTheIntegrationModuleNothingIsConfigured() {
        runner().withClassLoader(onlyInMemoryHiding(AgentPersistenceChatMemoryRepository.class))
                .run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(AgentPersistenceChatMemoryRepository.class);
                    assertThat(context.getBean(ChatMemoryRepository.class))
                            .isInstanceOf(InMemoryChatMemoryRepository.class);
                });
    }

    @Test
    void withoutSpringAiNothingIsConfigured() {
        Contexts.runnerWithOnly("inmemory")
                .withConfiguration(AutoConfigurations.of(AgentPersistenceChatMemoryAutoConfiguration.class))
                .withClassLoader(onlyInMemoryHiding(ChatMemoryRepository.class))
                .run(context ->
                        assertThat(context).hasNotFailed().doesNotHaveBean("agentPersistenceChatMemoryRepository"));
    }

    /** A class loader with the in-memory provider module as the only one, also hiding {@code hidden}. */
    private static FilteredClassLoader onlyInMemoryHiding(Class<?> hidden) {
        return new FilteredClassLoader(Stream.concat(
                        Stream.of(hidden),
                        PersistenceStorageProviders.available().stream()
                                .filter(f -> !f.name().equals("inmemory"))
                                .map(PersistenceStorageProviderFactory::getClass))
                .toArray(Class<?>[]::new));
    }
}
