package dev.agentpersistence.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.cli.internal.Store;
import dev.agentpersistence.cli.internal.StoreVerifier;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.spi.StorageUri;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code verify} over a provider that is not the storage shell (a custom provider written against
 * the three-method SPI): it reads page by page, and an unreadable page ends that agent only.
 */
class StoreVerifierTest {
    @TempDir
    Path directory;

    @Test
    void anUnreadablePageOfACustomProviderIsReportedAndTheOtherAgentsAreRead() {
        try (var sqlite = StorageUri.sqlite(directory.resolve("agents.db")).open()) {
            Fixtures.seed(sqlite);
            try (Store store = Store.of(new CorruptForOneAgent(sqlite, "support"), "custom provider")) {
                var verifier = new StoreVerifier(store);
                assertThat(verifier.verify("billing")).isEmpty();
                var problems = verifier.verify("support");
                assertThat(problems).singleElement().satisfies(problem -> {
                    assertThat(problem.agentId()).isEqualTo("support");
                    assertThat(problem.checkpointId()).isEqualTo("support-cp-1");
                    assertThat(problem.location()).isEqualTo("custom://support/1");
                    assertThat(problem.problem()).contains("bad bytes");
                });
                assertThat(verifier.checked()).isEqualTo(1);
            }
        }
    }

    /** A provider of its own (not a storage shell) whose reads of one agent fail as corrupt. */
    private record CorruptForOneAgent(PersistenceStorageProvider<CheckpointFilter> delegate, String corruptAgent)
            implements PersistenceStorageProvider<CheckpointFilter> {

        @Override
        public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
            if (agentId.equals(corruptAgent)) {
                throw new CorruptCheckpointException(agentId, "support-cp-1", "custom://support/1", "bad bytes", null);
            }
            return delegate.getCheckpoints(agentId, filter);
        }

        @Override
        public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
            delegate.saveCheckpoint(agentId, checkpoint);
        }

        @Override
        public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
            return delegate.getLatestCheckpoint(agentId, filter);
        }

        @Override
        public List<String> listAgents() {
            return delegate.listAgents();
        }

        @Override
        public void close() {
        }
    }
}
