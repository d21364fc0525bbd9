package dev.agentpersistence.adk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentNamespace;
import dev.agentpersistence.Identifiers;
import dev.agentpersistence.InvalidIdentifierException;
import dev.agentpersistence.adk.internal.AdkIds;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The agent ids of ADK data: valid, injective, one namespace per kind. */
class AdkIdsTest {
    private static final List<String> IDS = List.of(
            "plain",
            "a/b",
            "a%2Fb",
            "%",
            "%0025",
            "../x",
            "tab\there",
            "nul\u0000",
            "日本語",
            "emoji😀",
            "half\uD83D",
            "");

    @Test
    void escapingRoundTripsAndNeverLeavesASlash() {
        for (String id : IDS) {
            String escaped = AdkIds.escape(id);
            assertThat(escaped).doesNotContain("/");
            assertThat(AdkIds.unescape(escaped)).isEqualTo(id);
        }
    }

    @Test
    void sessionIdsAreValidAndDistinct() {
        var agentIds = new HashSet<String>();
        for (String app : IDS.subList(0, 11)) {
            for (String user : IDS.subList(0, 11)) {
                String agentId = AdkIds.NAMESPACED.session(app, user, "s");
                assertThat(Identifiers.isValid(agentId)).as(agentId).isTrue();
                agentIds.add(agentId);
            }
        }
        assertThat(agentIds).hasSize(11 * 11);
    }

    @Test
    void kindsNeverShareAnAgentIdAndLiveInTheNamespace() {
        for (AdkIds ids : List.of(AdkIds.NAMESPACED, AdkIds.LEGACY)) {
            var agentIds = List.of(
                    ids.session("a", "u", "s"),
                    ids.appState("a"),
                    ids.userState("a", "u"),
                    ids.artifact("a", "u", "s", "f"),
                    ids.userArtifact("a", "u", "user:f"),
                    ids.memory("a", "u", "s"));
            assertThat(new HashSet<>(agentIds)).hasSize(agentIds.size());
            assertThat(agentIds).allSatisfy(id -> assertThat(id).startsWith(ids.root()));
        }
        assertThat(AdkIds.NAMESPACED.session("a", "u", "s")).isEqualTo("@adk/session/a/u/s");
        assertThat(AdkIds.LEGACY.session("a", "u", "s")).isEqualTo("adk/session/a/u/s");
        assertThat(AgentNamespace.containing(AdkIds.NAMESPACED.memory("a", "u", "s")))
                .contains(AdkIds.NAMESPACE);
    }

    @Test
    void anIdTooLongForTheStoreIsATypedError() {
        assertThatThrownBy(() -> AdkIds.NAMESPACED.session("app", "user", "x".repeat(300)))
                .isInstanceOf(InvalidIdentifierException.class);
    }
}
