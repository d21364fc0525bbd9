package dev.agentpersistence.pipeline;

import dev.agentpersistence.PersistenceException;
import java.util.List;

/** {@link Pipeline#resume} was given an answer its run's {@link InputRequest#schema()} refuses; the run still waits. */
public final class InvalidAnswerException extends PersistenceException {
    private final List<String> problems;

    public InvalidAnswerException(InputRequest request, List<String> problems) {
        super("The answer to question '" + request.requestId() + "' of run '" + request.runId() + "' (\""
                + request.question() + "\") does not match its schema "
                + request.schema().toJson() + ": "
                + String.join("; ", problems) + "; the run is still waiting");
        this.problems = List.copyOf(problems);
    }

    /** What is wrong with the answer. */
    public List<String> problems() {
        return problems;
    }
}
