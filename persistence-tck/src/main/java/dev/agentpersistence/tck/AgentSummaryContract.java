package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.backend.AgentSummary;
import dev.agentpersistence.backend.StoredDocument;
import dev.agentpersistence.backend.StoredForm;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@code storedForm().agentSummaries()} says for every agent what the per-agent calls say: its stored documents' count
 * and bytes, and the identity, node and time of its latest checkpoint.
 */
abstract class AgentSummaryContract extends Contract {

    AgentSummaryContract(KitSession session) {
        super(session);
    }

    private StoredForm storedForm() {
        var form = provider().storedForm();
        Assumptions.assumeTrue(form.isPresent(), providerName() + " shows no stored form");
        return form.get();
    }

    @Test
    @DisplayName("each agent's summary equals its documents and its latest checkpoint; sorted; deleted agents absent")
    void equalsPerAgentCalls() {
        StoredForm form = storedForm(); // first: a provider without one runs nothing of this test
        String plain = agent("summary-plain");
        String tombstoned = agent("summary-tombstone");
        String unordered = agent("summary-unordered");
        String deleted = agent("summary-deleted");
        saveAll(
                plain,
                List.of(Checkpoints.simple(plain, 0), Checkpoints.full(plain, 1), Checkpoints.minimal(plain, 2)));
        saveAll(
                tombstoned,
                List.of(
                        Checkpoints.simple(tombstoned, 0),
                        AgentCheckpoint.tombstone(tombstoned, 1, Checkpoints.createdAt(1))));
        saveAll(unordered, List.of(Checkpoints.full(unordered, 4), Checkpoints.simple(unordered, 1)));
        saveAll(deleted, List.of(Checkpoints.simple(deleted, 0)));
        optional("deleteCheckpoints", () -> provider().deleteCheckpoints(deleted));

        List<String> agents = provider().listAgents();
        List<AgentSummary> summaries = form.agentSummaries();

        assertThat(summaries)
                .extracting(AgentSummary::agentId)
                .as("one summary per agent of listAgents(), sorted")
                .isEqualTo(agents)
                .isSortedAccordingTo(Comparator.naturalOrder())
                .contains(plain, tombstoned, unordered)
                .doesNotContain(deleted);
        Map<String, AgentSummary> byAgent =
                summaries.stream().collect(Collectors.toMap(AgentSummary::agentId, Function.identity()));
        for (String agent : List.of(plain, tombstoned, unordered)) {
            List<StoredDocument> documents = form.documents(agent, CheckpointFilter.ALL);
            AgentCheckpoint latest = provider().getLatestCheckpoint(agent).orElseThrow();
            AgentSummary summary = byAgent.get(agent);
            assertThat(summary.checkpoints()).as("checkpoints of %s", agent).isEqualTo(documents.size());
            assertThat(summary.bytes())
                    .as("bytes of %s", agent)
                    .isEqualTo(
                            documents.stream().mapToLong(StoredDocument::size).sum());
            assertThat(summary.latest())
                    .as("latest of %s", agent)
                    .contains(new AgentSummary.Latest(
                            latest.version(),
                            latest.checkpointId(),
                            latest.nodeId(),
                            latest.createdAt(),
                            latest.isTombstone()));
        }
        assertThat(byAgent.get(unordered).latest().orElseThrow().version()).isEqualTo(4);
        assertThat(byAgent.get(tombstoned).latest().orElseThrow().tombstone()).isTrue();
    }

    @Test
    @DisplayName("a closed provider's summary throws IllegalStateException")
    void closed() {
        var other = newProvider();
        var form = other.storedForm();
        Assumptions.assumeTrue(form.isPresent(), providerName() + " shows no stored form");
        other.close();
        assertThatThrownBy(() -> form.get().agentSummaries()).isInstanceOf(IllegalStateException.class);
    }
}
