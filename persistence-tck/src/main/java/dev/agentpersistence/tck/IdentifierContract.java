package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.InvalidIdentifierException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Any valid id is stored safely and found exactly; invalid ids are rejected. */
abstract class IdentifierContract extends Contract {

    IdentifierContract(KitSession session) {
        super(session);
    }

    private List<String> hostileAgents() {
        return HostileIds.agentIds(runId());
    }

    @Test
    @DisplayName("hostile checkpoint ids (../../etc/passwd, a/b, SQL, %2F, *, {tag}, emoji, 256 chars, …) round-trip "
            + "exactly and stay distinct")
    void hostileCheckpointIds() {
        String agent = agent("hostile-checkpoints");
        var ids = HostileIds.valid();
        var saved = new ArrayList<AgentCheckpoint>();
        for (int v = 0; v < ids.size(); v++) {
            saved.add(Checkpoints.builder(agent, v)
                    .checkpointId(ids.get(v))
                    .metadata("id", ids.get(v))
                    .build());
        }
        saveAll(agent, saved);
        assertThat(provider().getCheckpoints(agent)).containsExactlyElementsOf(saved);
        for (var checkpoint : saved) {
            assertThat(provider()
                            .getCheckpoints(
                                    agent,
                                    CheckpointFilter.builder()
                                            .metadata("id", checkpoint.checkpointId())
                                            .build()))
                    .as("checkpoint id '%s'", checkpoint.checkpointId())
                    .containsExactly(checkpoint);
        }
    }

    @Test
    @DisplayName("hostile agent ids round-trip exactly and every agent sees only its own checkpoint")
    void hostileAgentIds() {
        var agents = hostileAgents();
        var hostile = HostileIds.valid();
        var saved = new ArrayList<AgentCheckpoint>();
        for (int i = 0; i < agents.size(); i++) {
            String agent = agents.get(i);
            var checkpoint = Checkpoints.builder(agent, i)
                    .checkpointId(hostile.get(i % hostile.size()))
                    .metadata("agent", agent)
                    .build();
            provider().saveCheckpoint(agent, checkpoint);
            saved.add(checkpoint);
        }
        for (int i = 0; i < agents.size(); i++) {
            String agent = agents.get(i);
            var mine = saved.get(i);
            assertThat(provider().getCheckpoints(agent))
                    .as("checkpoints of agent '%s'", agent)
                    .containsExactly(mine);
            assertThat(provider().getLatestCheckpoint(agent))
                    .as("latest of agent '%s'", agent)
                    .contains(mine);
            assertThat(provider()
                            .getCheckpoints(
                                    agent,
                                    CheckpointFilter.builder()
                                            .metadata("agent", agent)
                                            .build()))
                    .as("filtered checkpoints of agent '%s'", agent)
                    .containsExactly(mine);
        }
    }

    @Test
    @DisplayName("the exact ids '.', '..', '*' and '%' work as checkpoint ids next to ordinary ones")
    void dotIds() {
        String agent = agent("dots");
        var saved = List.of(
                Checkpoints.builder(agent, 0).checkpointId(".").build(),
                Checkpoints.builder(agent, 1).checkpointId("..").build(),
                Checkpoints.builder(agent, 2).checkpointId("*").build(),
                Checkpoints.builder(agent, 3).checkpointId("%").build(),
                Checkpoints.builder(agent, 4).checkpointId("ordinary").build());
        saveAll(agent, saved);
        assertThat(provider().getCheckpoints(agent)).containsExactlyElementsOf(saved);
        assertThat(provider().getLatestCheckpoint(agent)).contains(saved.get(4));
        assertThat(provider()
                        .getCheckpoints(
                                agent,
                                CheckpointFilter.builder()
                                        .maxVersion(1L)
                                        .limit(1)
                                        .build()))
                .containsExactly(saved.get(1));
    }

    @Test
    @DisplayName("ids that differ only in case, a trailing space or Unicode normalization are different ids")
    void nearDuplicates() {
        var pairs = List.of(List.of("Agent", "agent"), List.of("x", "x "), List.of("\u00E9", "e\u0301"));
        for (var pair : pairs) {
            String first = agent(pair.get(0)) + pair.get(0);
            String second = agent(pair.get(0)) + pair.get(1);
            var a = Checkpoints.builder(first, 0)
                    .checkpointId(pair.get(0))
                    .metadata("which", "first")
                    .build();
            var b = Checkpoints.builder(second, 0)
                    .checkpointId(pair.get(1))
                    .metadata("which", "second")
                    .build();
            provider().saveCheckpoint(first, a);
            provider().saveCheckpoint(second, b);
            assertThat(provider().getCheckpoints(first)).as("agent '%s'", first).containsExactly(a);
            assertThat(provider().getCheckpoints(second))
                    .as("agent '%s'", second)
                    .containsExactly(b);
            String shared = agent("near-duplicates");
            var c = Checkpoints.builder(shared, pairs.indexOf(pair) * 2L)
                    .checkpointId(pair.get(0))
                    .build();
            var d = Checkpoints.builder(shared, pairs.indexOf(pair) * 2L + 1)
                    .checkpointId(pair.get(1))
                    .build();
            provider().saveCheckpoint(shared, c);
            provider().saveCheckpoint(shared, d);
            assertThat(provider()
                            .getCheckpoints(
                                    shared,
                                    CheckpointFilter.builder()
                                            .maxVersion(d.version())
                                            .limit(2)
                                            .build()))
                    .as("checkpoint ids '%s' and '%s'", pair.get(0), pair.get(1))
                    .containsExactly(c, d);
        }
    }

    @Test
    @DisplayName("listAgents returns hostile agent ids exactly as saved, in String order")
    void listAgentsHostile() {
        var agents = hostileAgents();
        for (int i = 0; i < agents.size(); i++) {
            provider().saveCheckpoint(agents.get(i), Checkpoints.simple(agents.get(i), 0));
        }
        var listed = optional("listAgents", () -> provider().listAgents());
        assertThat(listed).isSortedAccordingTo(Comparator.naturalOrder());
        var mine = new ArrayList<String>();
        for (String id : listed) {
            if (id.contains(runId())) {
                mine.add(id);
            }
        }
        var expected = new ArrayList<>(agents);
        expected.sort(Comparator.naturalOrder());
        assertThat(mine).containsExactlyElementsOf(expected);
    }

    @Test
    @DisplayName("invalid agent ids (empty, NUL, control characters, 257 chars, unpaired surrogate) throw "
            + "InvalidIdentifierException")
    void invalidAgentIds() {
        var provider = provider();
        String valid = agent("valid");
        for (String bad : HostileIds.invalid()) {
            assertThatThrownBy(() -> provider.getCheckpoints(bad))
                    .as("getCheckpoints(%s)", printable(bad))
                    .isInstanceOf(InvalidIdentifierException.class);
            assertThatThrownBy(() -> provider.getCheckpoints(bad, CheckpointFilter.ALL))
                    .as("getCheckpoints(%s, ALL)", printable(bad))
                    .isInstanceOf(InvalidIdentifierException.class);
            assertThatThrownBy(() -> provider.getLatestCheckpoint(bad))
                    .as("getLatestCheckpoint(%s)", printable(bad))
                    .isInstanceOf(InvalidIdentifierException.class);
            assertThatThrownBy(() -> provider.getLatestCheckpoint(bad, CheckpointFilter.ALL))
                    .as("getLatestCheckpoint(%s, ALL)", printable(bad))
                    .isInstanceOf(InvalidIdentifierException.class);
            assertThatThrownBy(() -> provider.saveCheckpoint(bad, Checkpoints.simple(valid, 0)))
                    .as("saveCheckpoint(%s, …)", printable(bad))
                    .isInstanceOf(InvalidIdentifierException.class);
            assertThatThrownBy(() ->
                            Checkpoints.builder(valid, 0).checkpointId(bad).build())
                    .as("checkpoint id %s", printable(bad))
                    .isInstanceOf(InvalidIdentifierException.class);
            assertThatThrownBy(() -> Checkpoints.builder(bad, 0).build())
                    .as("agent id %s", printable(bad))
                    .isInstanceOf(InvalidIdentifierException.class);
        }
        assertThat(provider.getCheckpoints(valid)).isEmpty();
    }

    @Test
    @DisplayName("a null agent id is rejected, not treated as an agent")
    void nullAgentId() {
        var provider = provider();
        assertThatThrownBy(() -> provider.getCheckpoints(null))
                .isInstanceOfAny(NullPointerException.class, InvalidIdentifierException.class);
        assertThatThrownBy(() -> provider.getLatestCheckpoint(null))
                .isInstanceOfAny(NullPointerException.class, InvalidIdentifierException.class);
        assertThatThrownBy(() -> provider.saveCheckpoint(null, Checkpoints.simple(agent("null"), 0)))
                .isInstanceOfAny(NullPointerException.class, InvalidIdentifierException.class);
    }

    static String printable(String id) {
        var out = new StringBuilder("\"");
        id.codePoints().limit(40).forEach(cp -> {
            if (cp < 0x20 || cp == 0x7F || Character.isSurrogate((char) cp)) {
                out.append(String.format("\\u%04X", cp));
            } else {
                out.appendCodePoint(cp);
            }
        });
        return out.append(id.length() > 40 ? "…(" + id.length() + " chars)\"" : "\"")
                .toString();
    }
}
