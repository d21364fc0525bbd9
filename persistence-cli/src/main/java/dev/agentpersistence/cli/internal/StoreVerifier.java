package dev.agentpersistence.cli.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.backend.StoredDocument;
import dev.agentpersistence.backend.StoredForm;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads every checkpoint of an agent, one by one, and collects those that cannot be read. Over the storage shell each
 * stored record is read on its own, so one corrupt record does not hide the others; over another provider the pages are
 * read and the first unreadable one ends the agent.
 */
public final class StoreVerifier {
    private final Store store;
    private long checked;

    /** A verifier of {@code store}. */
    public StoreVerifier(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** How many checkpoints were read without a problem so far. */
    public long checked() {
        return checked;
    }

    /** The agent's unreadable checkpoints. */
    public List<CheckpointProblem> verify(String agentId) {
        var problems = new ArrayList<CheckpointProblem>();
        try {
            Optional<StoredForm> form = store.provider().storedForm();
            if (form.isPresent()) {
                VersionPages.newestFirst(
                        CheckpointFilter.builder().build(),
                        VersionPages.DEFAULT_PAGE,
                        filter -> form.get().documents(agentId, filter),
                        StoredDocument::version,
                        documents -> {
                            documents.forEach(
                                    document -> read(form.get(), document).ifPresent(problems::add));
                            return true;
                        });
            } else {
                store.pages(agentId, page -> {
                    checked += page.size();
                    return true;
                });
            }
        } catch (CorruptCheckpointException e) {
            problems.add(CheckpointProblem.of(agentId, -1, e));
        }
        return problems;
    }

    private Optional<CheckpointProblem> read(StoredForm form, StoredDocument document) {
        var provider = store.provider();
        String agentId = document.agentId();
        try {
            Optional<AgentCheckpoint> read = document.checkpointId() != null
                    ? provider.getCheckpoint(agentId, document.checkpointId())
                    : provider.getLatestCheckpoint(
                                    agentId,
                                    CheckpointFilter.builder()
                                            .maxVersion(document.version())
                                            .build())
                            .filter(checkpoint -> checkpoint.version() == document.version());
            if (read.isEmpty()) {
                return Optional.of(new CheckpointProblem(
                        agentId,
                        document.checkpointId(),
                        document.version(),
                        location(form, document),
                        "listed but not readable (deleted meanwhile?)"));
            }
            checked++;
            return Optional.empty();
        } catch (CorruptCheckpointException e) {
            return Optional.of(CheckpointProblem.of(agentId, document.version(), e));
        }
    }

    private static String location(StoredForm form, StoredDocument document) {
        return document.location() != null
                ? document.location()
                : form.location(document.agentId(), document.checkpointId());
    }
}
