package dev.agentpersistence.file.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The content of an agent's head state ({@value FileNames#HEAD_LOCK_FILE}) and head file ({@value FileNames#HEAD_FILE},
 * always without writers): the boot it was written in, the latest published version as far as the head knows, and the
 * saves in flight. See {@link AgentHead} for what it means and why it can be trusted.
 *
 * @param boot the boot id of the host that wrote it ({@link BootId}), {@code "-"} when unknown
 * @param latest the highest published version, {@link #NONE} for "no checkpoint", or {@link #UNKNOWN}
 * @param writers the saves registered and not yet finished
 */
record HeadState(String boot, long latest, List<Writer> writers) {
    /** {@link #latest} when the agent has no checkpoint. */
    static final long NONE = -1;
    /** {@link #latest} when the head does not know; readers list the directory. */
    static final long UNKNOWN = -2;

    HeadState {
        Objects.requireNonNull(boot, "boot");
        writers = List.copyOf(writers);
    }

    /** Whether {@link #latest} is a version or {@link #NONE} (not {@link #UNKNOWN}). */
    boolean latestKnown() {
        return latest != UNKNOWN;
    }

    HeadState withLatest(long newLatest) {
        return new HeadState(boot, newLatest, writers);
    }

    HeadState withWriter(Writer writer) {
        var more = new ArrayList<>(writers);
        more.add(writer);
        return new HeadState(boot, latest, more);
    }

    /** This head without the writers {@code drop} accepts. */
    HeadState without(Predicate<Writer> drop) {
        return new HeadState(
                boot, latest, writers.stream().filter(drop.negate()).toList());
    }

    /**
     * One save in flight.
     *
     * @param host the writer process's host hash ({@link WriterProcess}), {@code "-"} when unknown
     * @param pid its process id (0 when unknown)
     * @param startMillis its start time, epoch milliseconds (0 when unknown)
     * @param token unique per save, so that a save removes exactly its own entry
     * @param version the version being saved
     * @param sinceMillis when the save registered, epoch milliseconds of the provider's clock
     */
    record Writer(String host, long pid, long startMillis, String token, long version, long sinceMillis) {
        /** The process that registered the save; empty when it could not be identified. */
        Optional<WriterProcess> process() {
            return host.equals(HeadFormat.UNKNOWN_HOST)
                    ? Optional.empty()
                    : Optional.of(new WriterProcess(host, pid, startMillis));
        }
    }
}
