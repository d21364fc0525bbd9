package dev.agentpersistence.spring.boot.autoconfigure;

import dev.agentpersistence.jackson3.Jackson3Mapping;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import tools.jackson.databind.json.JsonMapper;

/**
 * Jackson 3 applications: when {@code persistence-jackson3} is on the class path and the application has a Jackson 3
 * {@link JsonMapper} bean (Spring Boot's own, with the application's modules and {@code spring.jackson.*} settings), a
 * {@link Jackson3Mapping} over that mapper, so state values, inputs and pipeline states
 * ({@code Jackson3StateCodec.of(mapping, type)}) are mapped exactly as the application maps its JSON. It backs off when
 * the application defines its own {@code Jackson3Mapping}.
 */
@AutoConfiguration(afterName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")
@ConditionalOnClass({Jackson3Mapping.class, JsonMapper.class})
public class AgentPersistenceJackson3AutoConfiguration {

    /** The application's Jackson 3 mapper applied to what agent-persistence stores as JSON. */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(JsonMapper.class)
    public Jackson3Mapping agentPersistenceJackson3Mapping(JsonMapper jsonMapper) {
        return Jackson3Mapping.of(jsonMapper);
    }
}
