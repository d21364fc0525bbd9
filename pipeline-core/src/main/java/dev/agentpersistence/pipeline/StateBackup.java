package dev.agentpersistence.pipeline;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A copy of a pipeline state taken before a node attempt. The pipeline calls {@link #restore()} at most once (when the
 * attempt fails) and then {@link #discard()} exactly once.
 *
 * @param <S> the pipeline state type
 */
public interface StateBackup<S> {

    /** Puts the state back as it was when the backup was taken and returns it. */
    S restore();

    /** Releases what the backup holds (for example a backup directory). */
    void discard();

    /** A backup that holds its state in memory; {@code restore} supplies it, {@code discard} does nothing. */
    static <S> StateBackup<S> inMemory(Supplier<? extends S> restore) {
        Objects.requireNonNull(restore, "restore");
        return new StateBackup<>() {
            @Override
            public S restore() {
                return restore.get();
            }

            @Override
            public void discard() {}
        };
    }
}
