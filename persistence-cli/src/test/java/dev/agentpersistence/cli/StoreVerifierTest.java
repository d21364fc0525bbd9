package dev.agentpersistence.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.backend.StoredForm;
import dev.agentpersistence.cli.internal.Store;
import dev.agentpersistence.cli.internal.StoreVerifier;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import dev.agentpersistence.tck.ForwardingStorageProvider;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code verify} over a provider that is not the storage shell (a custom provider written against the three-method
 * SPI): it reads page by page, and an unreadable page ends that agent only.
 */
class StoreVerifierTest {
    @TempDir
    Path directory;

    @Test
    void anUnreadablePageOfACustomProviderIsReportedAndTheOtherAgentsAreRead() {
        try (var sqlite = StorageUri.parse(
                        "jdbc:sqlite:" + directory.resolve("agents.db").toAbsolutePath(), ProviderConfig.empty())
                .open()) {
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
    private static final class CorruptForOneAgent extends ForwardingStorageProvider<CheckpointFilter> {
        private final String corruptAgent;

        CorruptForOneAgent(PersistenceStorageProvider<CheckpointFilter> delegate, String corruptAgent) {
            super(delegate);
            this.corruptAgent = corruptAgent;
        }

        @Override
        public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
            if (agentId.equals(corruptAgent)) {
                throw new CorruptCheckpointException(agentId, "support-cp-1", "custom://support/1", "bad bytes", null);
            }
            return super.getCheckpoints(agentId, filter);
        }

        /** A provider of its own has no stored form: the verifier reads it through the SPI. */
        @Override
        public Optional<StoredForm> storedForm() {
            return Optional.empty();
        }

        /** The test closes the SQLite provider itself. */
        @Override
        public void close() {}
    }
}
