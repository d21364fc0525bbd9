package dev.agentpersistence.pipeline.internal;

import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.UndoResult;
import dev.agentpersistence.pipeline.AttemptAbandonedException;
import dev.agentpersistence.pipeline.PipelineEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a resumed run does first: reads the journal for attempts a crash cut off, undoes their journaled tool calls
 * through the inverse tools (newest first, each inverse given the call's idempotency key and arguments; a call without
 * a recorded result counts as possibly done and is undone too), and closes them in the journal. Undoing twice is safe
 * when the inverses are idempotent per key, so a crash during recovery is recovered by the next resume.
 */
public final class JournalRecovery {
    private JournalRecovery() {}

    /**
     * Recovers the open attempts after {@code mark}.
     *
     * @return the newest recovered attempt (the one the run retries), empty when none was open
     */
    public static Optional<Recovered> recover(
            ToolJournal journal, long mark, RollbackToolRegistry tools, RunEvents events) {
        return recover(List.of(new Source(journal, mark)), tools, events);
    }

    /**
     * Recovers the open attempts of several journals of one run, oldest journal first (a journal of an earlier version,
     * then the run's journal): each attempt is closed in the journal it was found in.
     *
     * @return the newest recovered attempt (the one the run retries), empty when none was open
     */
    public static Optional<Recovered> recover(List<Source> sources, RollbackToolRegistry tools, RunEvents events) {
        var open = new ArrayList<OpenAttempt>();
        var journals = new ArrayList<ToolJournal>();
        for (Source source : sources) {
            for (OpenAttempt attempt : source.journal().openAttempts(source.mark())) {
                open.add(attempt);
                journals.add(source.journal());
            }
        }
        Recovered newest = null;
        for (int i = open.size() - 1; i >= 0; i--) {
            OpenAttempt attempt = open.get(i);
            UndoResult undo = tools.undo(attempt.calls(), call -> attempt.keys().get(call.id()));
            journals.get(i).closeQuietly(attempt.node(), attempt.attempt());
            events.publish(new PipelineEvent.AttemptRecovered(
                    events.pipeline(), events.runId(), events.now(), attempt.node(), attempt.attempt(), undo));
            events.publish(new PipelineEvent.RollbackPerformed(
                    events.pipeline(), events.runId(), events.now(), attempt.node(), attempt.attempt(), undo));
            if (newest == null) {
                var possiblyDone = new ArrayList<String>();
                attempt.calls().stream()
                        .filter(call -> attempt.unfinished().contains(call.id()))
                        .forEach(call -> possiblyDone.add(call.toolName() + " (call " + call.id() + ")"));
                newest = new Recovered(
                        attempt.node(),
                        attempt.attempt(),
                        undo,
                        new AttemptAbandonedException(
                                events.runId(),
                                attempt.node(),
                                attempt.attempt(),
                                attempt.calls().size(),
                                possiblyDone));
            }
        }
        return Optional.ofNullable(newest);
    }

    /**
     * A journal to recover and the mark of the run's newest checkpoint in it.
     *
     * @param journal the journal
     * @param mark the version of its last settled entry, or -1
     */
    public record Source(ToolJournal journal, long mark) {}

    /**
     * A cut-off attempt that was undone.
     *
     * @param node its node
     * @param attempt its number
     * @param undo the inverse calls made
     * @param cause the feedback exception for the retry
     */
    public record Recovered(String node, int attempt, UndoResult undo, AttemptAbandonedException cause) {}
}
