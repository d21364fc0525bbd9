package dev.agentpersistence.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.SimpleAgentContext;
import dev.agentpersistence.jackson3.Jackson3Mapping;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import tools.jackson.databind.json.JsonMapper;

/**
 * A Boot 4 application whose own code speaks only Jackson 3 ({@code tools.jackson}: this class imports nothing of
 * Jackson 2) stores records with {@code java.time} fields through Boot's own mapper and reads them back equal, after a
 * restart of the context on the same SQLite file.
 */
class Jackson3AutoConfigurationTest {
    record Booking(String guestName, Instant bookedAt, LocalDate night, Duration stay) {}

    private static final Booking BOOKING = new Booking(
            "Ada",
            Instant.parse("2026-03-04T05:06:07.123456789Z"),
            LocalDate.parse("2026-04-01"),
            Duration.ofHours(36));

    @TempDir
    Path dir;

    @Test
    void bootsOwnJsonMapperMapsWhatIsStored() {
        var runner = Contexts.runner()
                .withConfiguration(AutoConfigurations.of(
                        JacksonAutoConfiguration.class, AgentPersistenceJackson3AutoConfiguration.class))
                .withPropertyValues(
                        "agent.persistence.provider=jdbc",
                        "agent.persistence.jdbc.url=jdbc:sqlite:" + dir.resolve("app.db"),
                        "spring.jackson.property-naming-strategy=SNAKE_CASE");

        runner.run(context -> {
            Jackson3Mapping mapping = context.getBean(Jackson3Mapping.class);
            assertThat(mapping.mapper()).isSameAs(context.getBean(JsonMapper.class));
            var agent = new SimpleAgentContext("booking-agent").putState("booking", mapping.toStored(BOOKING));
            context.getBean(AgentPersistence.class).createCheckpoint(agent, "book", null, null);
        });
        runner.run(context -> {
            Jackson3Mapping mapping = context.getBean(Jackson3Mapping.class);
            PersistenceStorageProvider<?> storage = context.getBean(PersistenceStorageProvider.class);
            var stored = storage.getLatestCheckpoint("booking-agent")
                    .orElseThrow()
                    .state()
                    .get("booking");
            assertThat(stored.has("guest_name"))
                    .as("Boot's spring.jackson settings apply")
                    .isTrue();
            assertThat(mapping.fromStored(stored, Booking.class)).isEqualTo(BOOKING);
        });
    }

    @Test
    void backsOffWithoutAJackson3MapperOrWhenTheApplicationHasItsOwnMapping() {
        Contexts.runner()
                .withConfiguration(AutoConfigurations.of(AgentPersistenceJackson3AutoConfiguration.class))
                .withPropertyValues("agent.persistence.provider=inmemory")
                .run(context -> assertThat(context).doesNotHaveBean(Jackson3Mapping.class));
        Contexts.runner()
                .withConfiguration(AutoConfigurations.of(
                        JacksonAutoConfiguration.class, AgentPersistenceJackson3AutoConfiguration.class))
                .withPropertyValues("agent.persistence.provider=inmemory")
                .withBean("own", Jackson3Mapping.class, Jackson3Mapping::ofDefaults)
                .run(context ->
                        assertThat(context.getBean(Jackson3Mapping.class)).isSameAs(context.getBean("own")));
        Contexts.runner()
                .withConfiguration(AutoConfigurations.of(
                        JacksonAutoConfiguration.class, AgentPersistenceJackson3AutoConfiguration.class))
                .withClassLoader(new FilteredClassLoader(Jackson3Mapping.class))
                .withPropertyValues("agent.persistence.provider=inmemory")
                .run(context -> assertThat(context).doesNotHaveBean(Jackson3Mapping.class));
    }
}
