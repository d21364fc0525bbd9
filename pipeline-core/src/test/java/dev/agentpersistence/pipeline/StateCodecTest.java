package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Jackson state codecs and their default in-memory backup. */
class StateCodecTest {
    record Report(String title, Instant at, List<String> sections) {}

    @Test
    void recordsWithTimeRoundTrip() {
        StateCodec<Report> codec = StateCodec.jackson(Report.class);
        var report = new Report("t", Instant.parse("2026-01-02T03:04:05.123456789Z"), List.of("a", "b"));

        var json = codec.encode(report);
        assertThat(json.path("at").asText()).isEqualTo("2026-01-02T03:04:05.123456789Z");
        assertThat(codec.decode(json)).isEqualTo(report);
    }

    @Test
    void genericTypesRoundTrip() {
        StateCodec<Map<String, List<Integer>>> codec = StateCodec.jackson(new TypeReference<>() {});
        Map<String, List<Integer>> state = Map.of("a", List.of(1, 2));
        assertThat(codec.decode(codec.encode(state))).isEqualTo(state);
    }

    @Test
    void defaultBackupRestoresACopyOfTheStateAsItWas() {
        StateCodec<Report> codec = StateCodec.jackson(Report.class);
        var report = new Report("t", Instant.EPOCH, List.of("a"));
        StateBackup<Report> backup = codec.backup(report);
        assertThat(backup.restore()).isEqualTo(report).isNotSameAs(report);
        backup.discard();
    }

    @Test
    void foreignJsonIsRejected() {
        StateCodec<Report> codec = StateCodec.jackson(Report.class);
        assertThatThrownBy(
                        () -> codec.decode(JsonNodeFactory.instance.objectNode().put("unknown", 1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
