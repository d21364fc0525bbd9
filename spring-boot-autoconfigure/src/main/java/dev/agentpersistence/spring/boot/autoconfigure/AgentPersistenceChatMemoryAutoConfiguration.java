package dev.agentpersistence.spring.boot.autoconfigure;

import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.springai.AgentPersistenceChatMemoryRepository;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * Spring AI chat memory in the application's storage provider: when Spring AI and {@code agent-persistence-spring-ai}
 * are on the class path, a {@link ChatMemoryRepository} over the {@link PersistenceStorageProvider} bean
 * ({@link AgentPersistenceChatMemoryRepository}: conversation {@code <id>} stored as agent {@code @spring-ai/<id>}, in
 * the namespace {@link AgentPersistenceChatMemoryRepository#NAMESPACE}, so no conversation id can name another kind of
 * agent). A store written before namespaces (agent ids {@value AgentPersistenceChatMemoryRepository#DEFAULT_PREFIX}
 * {@code <id>}) is read and written by a {@code ChatMemoryRepository} bean of the application's own, built with
 * {@link AgentPersistenceChatMemoryRepository.Builder#withoutNamespace()}. It runs before Spring AI's own chat memory
 * auto-configuration, so Spring AI's {@code ChatMemory} beans use it instead of the in-memory repository. It backs off
 * when the application defines a {@code ChatMemoryRepository}, and when the provider is the no-op one (nothing would be
 * remembered).
 */
@AutoConfiguration(
        after = AgentPersistenceAutoConfiguration.class,
        beforeName = "org.springframework.ai.model.chat.memory.autoconfigure.ChatMemoryAutoConfiguration")
@ConditionalOnClass({ChatMemoryRepository.class, AgentPersistenceChatMemoryRepository.class})
public class AgentPersistenceChatMemoryAutoConfiguration {

    /**
     * Chat memory over the storage provider bean, its operations observed into the application's
     * {@link ObservationRegistry} when there is one.
     */
    @Bean
    @ConditionalOnMissingBean(ChatMemoryRepository.class)
    @ConditionalOnBean(PersistenceStorageProvider.class)
    @Conditional(OnStoringProviderCondition.class)
    public AgentPersistenceChatMemoryRepository agentPersistenceChatMemoryRepository(
            PersistenceStorageProvider<?> storage, ObjectProvider<ObservationRegistry> observations) {
        var repository = AgentPersistenceChatMemoryRepository.builder(storage);
        observations.ifUnique(repository::observationRegistry);
        return repository.build();
    }
}
