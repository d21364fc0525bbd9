package dev.agentpersistence.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.SaveResult;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.cli.internal.Copier;
import dev.agentpersistence.cli.internal.Progress;
import dev.agentpersistence.cli.internal.Selection;
import dev.agentpersistence.cli.internal.Store;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import dev.agentpersistence.tck.ForwardingStorageProvider;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A copy interrupted by the target going away, then run again: it continues, never writes twice, and verifies. */
class ResumedCopyTest {
    private static final int PER_AGENT = 450; // more than two pages

    @TempDir
    Path directory;

    @Test
    void aSecondRunCopiesOnlyWhatTheFirstDidNot() {
        Path source = directory.resolve("source.db");
        Path target = directory.resolve("target.db");
        try (var provider = StorageUri.parse("jdbc:sqlite:" + source.toAbsolutePath(), ProviderConfig.empty())
                .open()) {
            for (String agent : List.of("a", "b")) {
                for (int version = 0; version < PER_AGENT; version++) {
                    provider.saveCheckpoint(agent, checkpoint(agent, version));
                }
            }
        }
        var err = new StringWriter();
        try (var from = Store.open("jdbc:sqlite:" + source, dev.agentpersistence.spi.ProviderConfig.empty());
                var to = Store.of(
                        new FailingAfterSaves(
                                StorageUri.parse("jdbc:sqlite:" + target.toAbsolutePath(), ProviderConfig.empty())
                                        .open(),
                                600),
                        "target")) {
            // one thread, so exactly the first 600 saves land (with several, a save in flight on another
            // thread when the target fails may or may not finish; the resumed run below uses several)
            var copier = new Copier(
                    from, to, Selection.all(), new Progress(new PrintWriter(err), false, System::nanoTime), 1);
            assertThatThrownBy(copier::copy).isInstanceOf(StorageUnavailableException.class);
        }
        var partial = CliRun.of("agents", "--json", "--store", "jdbc:sqlite:" + target)
                .json();
        assertThat(partial.get(0).get("checkpoints").asInt()
                        + partial.get(1).get("checkpoints").asInt())
                .isEqualTo(600);

        var resumed = CliRun.of("copy", "--from", "jdbc:sqlite:" + source, "--to", "jdbc:sqlite:" + target, "--json");
        assertThat(resumed.exitCode()).as("%s", resumed).isZero();
        assertThat(resumed.json().get("checkpoints").asInt()).isEqualTo(2 * PER_AGENT);
        assertThat(resumed.json().get("copied").asInt()).isEqualTo(2 * PER_AGENT - 600);
        assertThat(resumed.json().get("alreadyThere").asInt()).isEqualTo(600);
        assertThat(resumed.json().get("verified").asBoolean()).isTrue();
        assertThat(resumed.err()).contains("900 checkpoints");

        var third = CliRun.of("copy", "--from", "jdbc:sqlite:" + source, "--to", "jdbc:sqlite:" + target, "--json");
        assertThat(third.json().get("copied").asInt()).isZero();
        try (var copy = StorageUri.parse("jdbc:sqlite:" + target.toAbsolutePath(), ProviderConfig.empty())
                .open()) {
            assertThat(copy.getCheckpoints("a")).hasSize(PER_AGENT).last().isEqualTo(checkpoint("a", PER_AGENT - 1));
        }
    }

    @Test
    void aConflictInAPageFailsTheCopyAfterTheOtherCheckpointsOfThatPageAreSaved() {
        Path source = directory.resolve("pages.db");
        Path target = directory.resolve("conflicting.db");
        try (var provider = StorageUri.parse("jdbc:sqlite:" + source.toAbsolutePath(), ProviderConfig.empty())
                .open()) {
            for (int version = 0; version < PER_AGENT; version++) {
                provider.saveCheckpoint("a", checkpoint("a", version));
            }
        }
        var intruder = checkpoint("a", 150).toBuilder().checkpointId("intruder").build();
        try (var provider = StorageUri.parse("jdbc:sqlite:" + target.toAbsolutePath(), ProviderConfig.empty())
                .open()) {
            provider.saveCheckpoint("a", intruder);
        }
        var run = CliRun.of("copy", "--from", "jdbc:sqlite:" + source, "--to", "jdbc:sqlite:" + target);
        assertThat(run.exitCode()).as("%s", run).isEqualTo(ExitCode.CONFLICT);
        try (var copy = StorageUri.parse("jdbc:sqlite:" + target.toAbsolutePath(), ProviderConfig.empty())
                .open()) {
            var expected = new ArrayList<AgentCheckpoint>();
            for (int version = 50; version < PER_AGENT; version++) {
                expected.add(version == 150 ? intruder : checkpoint("a", version));
            }
            // pages of 200, newest first: 250 to 449 are saved, then the rest of the page of 50 to 249 that holds
            // the conflict; the page of 0 to 49 is not copied
            assertThat(copy.getCheckpoints("a")).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void aTargetThatDiffersIsNotVerified() {
        Path source = directory.resolve("s.db");
        Path target = directory.resolve("t.db");
        try (var provider = StorageUri.parse("jdbc:sqlite:" + source.toAbsolutePath(), ProviderConfig.empty())
                .open()) {
            Fixtures.seed(provider);
        }
        try (var provider = StorageUri.parse("jdbc:sqlite:" + target.toAbsolutePath(), ProviderConfig.empty())
                .open()) {
            provider.saveCheckpoint(
                    "billing",
                    Fixtures.billing().toBuilder()
                            .checkpointId("extra")
                            .version(7)
                            .build());
        }
        var run = CliRun.of("copy", "--from", "jdbc:sqlite:" + source, "--to", "jdbc:sqlite:" + target);
        assertThat(run.exitCode()).as("%s", run).isEqualTo(ExitCode.PROBLEMS_FOUND);
        assertThat(run.out()).contains("NOT verified: 1 agents differ", "billing: source has 1 checkpoints, target 2");
    }

    @Test
    void aCheckpointTheTargetAlreadyHeldWithOtherContentIsNotVerifiedOnEveryRun() {
        Path source = directory.resolve("changed-s.db");
        Path target = directory.resolve("changed-t.db");
        save(source, "a", 0, PER_AGENT, 1);
        try (var provider = open(target)) {
            provider.saveCheckpoint(
                    "a", checkpoint("a", 300).toBuilder().nodeId("elsewhere").build());
        }
        for (int run = 0; run < 2; run++) {
            var copy = CliRun.of("copy", "--from", "jdbc:sqlite:" + source, "--to", "jdbc:sqlite:" + target);
            assertThat(copy.exitCode()).as("%s", copy).isEqualTo(ExitCode.PROBLEMS_FOUND);
            assertThat(copy.out()).contains("a: source has 450 checkpoints, target 450 with different content");
        }
    }

    @Test
    void checkpointsOnlyTheTargetHoldsAreFoundBetweenPagesAndBelowTheOldest() {
        Path source = directory.resolve("extra-s.db");
        Path target = directory.resolve("extra-t.db");
        // even versions 2 to 900: pages of 200, newest first, are 502-900, 102-500 and 2-100
        save(source, "a", 2, PER_AGENT, 2);
        save(source, "b", 2, PER_AGENT, 2);
        try (var provider = open(target)) {
            provider.saveCheckpoint("a", checkpoint("a", 1)); // below the oldest page
            provider.saveCheckpoint("b", checkpoint("b", 501)); // between two pages
        }
        var copy = CliRun.of("copy", "--from", "jdbc:sqlite:" + source, "--to", "jdbc:sqlite:" + target);
        assertThat(copy.exitCode()).as("%s", copy).isEqualTo(ExitCode.PROBLEMS_FOUND);
        assertThat(copy.out())
                .contains(
                        "NOT verified: 2 agents differ",
                        "a: source has 450 checkpoints, target 451",
                        "b: source has 450 checkpoints, target 451");
    }

    private static PersistenceStorageProvider<CheckpointFilter> open(Path file) {
        return StorageUri.parse("jdbc:sqlite:" + file.toAbsolutePath(), ProviderConfig.empty())
                .open();
    }

    /** Saves {@code count} checkpoints of {@code agent} in {@code file}, from version {@code first} by {@code step}. */
    private static void save(Path file, String agent, int first, int count, int step) {
        try (var provider = open(file)) {
            for (int i = 0; i < count; i++) {
                provider.saveCheckpoint(agent, checkpoint(agent, first + i * step));
            }
        }
    }

    private static AgentCheckpoint checkpoint(String agent, int version) {
        var history = new ArrayList<Message>();
        for (int i = 0; i <= version % 7; i++) {
            history.add(new Message(
                    agent + "-m" + version + "-" + i,
                    Message.Role.USER,
                    "message " + i,
                    null,
                    null,
                    java.util.Map.of()));
        }
        return AgentCheckpoint.builder()
                .checkpointId(agent + "-" + version)
                .agentId(agent)
                .version(version)
                .createdAt(Instant.parse("2026-01-01T00:00:00Z").plusSeconds(version))
                .nodeId("n" + version % 3)
                .messageHistory(history)
                .build();
    }

    /** A target whose store goes away after a number of saves. */
    private static final class FailingAfterSaves extends ForwardingStorageProvider<CheckpointFilter> {
        private final AtomicInteger savesLeft;

        FailingAfterSaves(PersistenceStorageProvider<CheckpointFilter> delegate, int saves) {
            super(delegate);
            this.savesLeft = new AtomicInteger(saves);
        }

        @Override
        public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
            if (savesLeft.getAndDecrement() <= 0) {
                throw new StorageUnavailableException(
                        "the target went away", new java.io.IOException("connection reset"));
            }
            super.saveCheckpoint(agentId, checkpoint);
        }

        /** A batch goes through too, up to the saves left; then the store goes away. */
        @Override
        public List<SaveResult> saveCheckpoints(List<AgentCheckpoint> checkpoints) {
            int allowed = Math.max(0, Math.min(checkpoints.size(), savesLeft.getAndAdd(-checkpoints.size())));
            if (allowed < checkpoints.size()) {
                super.saveCheckpoints(checkpoints.subList(0, allowed));
                throw new StorageUnavailableException(
                        "the target went away", new java.io.IOException("connection reset"));
            }
            return super.saveCheckpoints(checkpoints);
        }
    }
}
