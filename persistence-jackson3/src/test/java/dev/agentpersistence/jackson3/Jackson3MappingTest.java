package dev.agentpersistence.jackson3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.SimpleAgentContext;
import dev.agentpersistence.file.FileStorage;
import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import dev.agentpersistence.pipeline.Node;
import dev.agentpersistence.pipeline.Pipeline;
import dev.agentpersistence.pipeline.StateCodec;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.cfg.DateTimeFeature;
import tools.jackson.databind.json.JsonMapper;

/** An application's own Jackson 3 mapper applied to what real stores keep: state values and pipeline states. */
class Jackson3MappingTest {
    record Booking(String guestName, Instant bookedAt, LocalDate night, Duration stay, OffsetDateTime confirmedAt) {}

    record Trip(String title, List<Booking> bookings, int steps) {}

    enum Store {
        FILE(dir -> FileStorage.builder(dir.resolve("store")).build()),
        SQLITE(dir -> JdbcStorage.builder(JdbcStorageConfig.custom()
                        .url("jdbc:sqlite:" + dir.resolve("agents.db"))
                        .build())
                .build());

        final Function<Path, PersistenceStorageProvider<?>> open;

        Store(Function<Path, PersistenceStorageProvider<?>> open) {
            this.open = open;
        }
    }

    private static final JsonMapper APPLICATION_MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(DateTimeFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
            .build();

    private static final Booking BOOKING = new Booking(
            "Ada",
            Instant.parse("2026-03-04T05:06:07.123456789Z"),
            LocalDate.parse("2026-04-01"),
            Duration.ofHours(36),
            OffsetDateTime.parse("2026-03-04T06:07:08+02:00"));

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Store.class)
    void aStateValueWrittenWithTheApplicationsMapperReadsBackEqual(Store store) throws Exception {
        var mapping = Jackson3Mapping.of(APPLICATION_MAPPER);
        try (var storage = store.open.apply(dir)) {
            var persistence = AgentPersistence.builder().storage(storage).build();
            var context = new SimpleAgentContext("trip-planner");
            context.putState("booking", mapping.toStored(BOOKING));
            persistence.createCheckpoint(context, "book", mapping.toStored(Map.of("night", BOOKING.night())), null);
        }
        try (var reopened = store.open.apply(dir)) {
            var stored = reopened.getLatestCheckpoint("trip-planner").orElseThrow();
            assertThat(stored.state().get("booking").has("guest_name"))
                    .as("the application's naming")
                    .isTrue();
            assertThat(mapping.fromStored(stored.state().get("booking"), Booking.class))
                    .isEqualTo(BOOKING);
            assertThat(mapping.fromStored(stored.lastInput(), new TypeReference<Map<String, LocalDate>>() {}))
                    .containsEntry("night", BOOKING.night());
        }
    }

    @ParameterizedTest
    @EnumSource(Store.class)
    void aPipelineStateMappedWithJackson3SurvivesTheStore(Store store) {
        StateCodec<Trip> codec = Jackson3StateCodec.of(Jackson3Mapping.of(APPLICATION_MAPPER), Trip.class);
        try (var storage = store.open.apply(dir)) {
            var pipeline = Pipeline.builder("trips", codec)
                    .storage(storage)
                    .node(Node.of(
                            "book",
                            context -> new Trip(
                                    context.state().title(),
                                    List.of(BOOKING),
                                    context.state().steps() + 1)))
                    .node(Node.of(
                            "confirm",
                            context -> new Trip(
                                    context.state().title() + " ✓",
                                    context.state().bookings(),
                                    context.state().steps() + 1)))
                    .build();
            var result = pipeline.run("trip-1", new Trip("Lisbon", List.of(), 0));

            assertThat(result.isCompleted()).isTrue();
            assertThat(result.state()).isEqualTo(new Trip("Lisbon ✓", List.of(BOOKING), 2));
            var again = pipeline.run("trip-1", new Trip("ignored", List.of(), 0));
            assertThat(again.state()).as("read back from the store").isEqualTo(result.state());
        }
    }

    @org.junit.jupiter.api.Test
    void jsonThatIsNotTheTypeIsATypedRefusal() {
        var mapping = Jackson3Mapping.ofDefaults();
        var json = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
                .objectNode()
                .put("bookedAt", "soon");
        assertThatThrownBy(() -> mapping.fromStored(json, Booking.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Jackson3MappingTest$Booking");
        assertThatThrownBy(() -> Jackson3StateCodec.of(mapping, Trip.class)
                        .decode(com.fasterxml.jackson.databind.node.NullNode.getInstance()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(mapping.toStored(null)).isNull();
        assertThat(mapping.fromStored(null, Booking.class)).isNull();
    }
}
