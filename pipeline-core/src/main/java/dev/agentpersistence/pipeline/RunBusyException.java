package dev.agentpersistence.pipeline;

import dev.agentpersistence.PersistenceException;
import java.util.Optional;

/**
 * Another runner holds the run: it saved a checkpoint of the run after the one this call read, so this call runs
 * nothing more (a second {@code run}, {@code resume} or {@code rerunFrom} of the same run, or the losing answer of two
 * concurrent resumes). What the call had saved stays; what its interrupted attempt did was rolled back.
 */
public final class RunBusyException extends PersistenceException {
    private final String pipeline;
    private final String runId;
    private final String holder;

    /**
     * @param holder the runner that saved the newer checkpoint, or {@code null} when unknown
     * @param cause the refused save
     */
    public RunBusyException(String pipeline, String runId, String holder, Throwable cause) {
        super(
                "Run '" + runId + "' of pipeline '" + pipeline + "' is taken by another runner"
                        + (holder == null ? "" : " ('" + holder + "')")
                        + ": it saved a checkpoint after the one this call read, so this call ran nothing more"
                        + (cause == null ? "" : "; " + cause.getMessage()),
                cause);
        this.pipeline = pipeline;
        this.runId = runId;
        this.holder = holder;
    }

    /** The pipeline's name. */
    public String pipeline() {
        return pipeline;
    }

    /** The run's id. */
    public String runId() {
        return runId;
    }

    /** The runner that holds the run (its token in the run's newest checkpoint), when known. */
    public Optional<String> holder() {
        return Optional.ofNullable(holder);
    }
}
