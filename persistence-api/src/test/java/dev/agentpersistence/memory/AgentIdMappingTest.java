package dev.agentpersistence.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentNamespace;
import dev.agentpersistence.InvalidIdentifierException;
import org.junit.jupiter.api.Test;

class AgentIdMappingTest {
    private static final AgentNamespace THREADS = AgentNamespace.of("threads");

    @Test
    void inANamespaceTheDefaultPrefixIsEmpty() {
        var ids = AgentIdMapping.of("thread", "threadId", THREADS, null, "legacy:");
        assertThat(ids.prefix()).isEmpty();
        assertThat(ids.namespace()).contains(THREADS);
        assertThat(ids.agentId("t-1")).isEqualTo("@threads/t-1");
        assertThat(ids.idOf("@threads/t-1")).contains("t-1");
    }

    @Test
    void withoutANamespaceTheDefaultPrefixIsTheOneGiven() {
        var ids = AgentIdMapping.of("thread", "threadId", null, null, "legacy:");
        assertThat(ids.prefix()).isEqualTo("legacy:");
        assertThat(ids.namespace()).isEmpty();
        assertThat(ids.agentId("t-1")).isEqualTo("legacy:t-1");
        assertThat(ids.idOf("legacy:t-1")).contains("t-1");
    }

    @Test
    void aPrefixSetIsUsedWithOrWithoutANamespace() {
        assertThat(AgentIdMapping.of("thread", "threadId", THREADS, "p-", "legacy:")
                        .agentId("t"))
                .isEqualTo("@threads/p-t");
        assertThat(AgentIdMapping.of("thread", "threadId", null, "", "legacy:").agentId("t"))
                .isEqualTo("t");
    }

    @Test
    void idsOfOtherNamespacesAndPrefixesAreNotOfTheMapping() {
        var namespaced = AgentIdMapping.of("thread", "threadId", THREADS, "p-", "");
        assertThat(namespaced.idOf("@other/p-t")).isEmpty();
        assertThat(namespaced.idOf("@threads/q-t")).isEmpty();
        assertThat(namespaced.idOf("@threads/p-")).isEmpty();
        var plain = AgentIdMapping.of("thread", "threadId", null, "", "");
        assertThat(plain.idOf("@threads/t")).isEmpty();
        assertThat(plain.idOf("t")).contains("t");
    }

    @Test
    void withoutANamespaceReservedIdsAreRefusedNamingTheKind() {
        var ids = AgentIdMapping.of("LangGraph4j thread", "threadId", null, "", "");
        assertThatThrownBy(() -> ids.agentId("@run/x"))
                .isInstanceOf(InvalidIdentifierException.class)
                .hasMessageStartingWith("LangGraph4j thread agent id '@run/x' starts with '@'");
    }

    @Test
    void inANamespaceInvalidIdsAreRefusedNamingTheKind() {
        var ids = AgentIdMapping.of("Koog session", "sessionId", THREADS, null, "");
        assertThatThrownBy(() -> ids.agentId("x".repeat(2000)))
                .isInstanceOf(InvalidIdentifierException.class)
                .hasMessageContaining("Koog session id");
    }

    @Test
    void aNullIdIsRefusedByItsParameterName() {
        var ids = AgentIdMapping.of("thread", "threadId", THREADS, null, "");
        assertThatThrownBy(() -> ids.agentId(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("threadId");
        assertThatThrownBy(() -> ids.idOf(null)).isInstanceOf(NullPointerException.class);
    }
}
