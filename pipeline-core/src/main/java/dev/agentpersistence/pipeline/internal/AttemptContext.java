package dev.agentpersistence.pipeline.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.KeyedTool;
import dev.agentpersistence.Message;
import dev.agentpersistence.Tool;
import dev.agentpersistence.ToolCall;
import dev.agentpersistence.pipeline.AnswerSchema;
import dev.agentpersistence.pipeline.InputRequest;
import dev.agentpersistence.pipeline.NodeContext;
import dev.agentpersistence.pipeline.RetryFeedback;
import dev.agentpersistence.pipeline.RunBusyException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The {@link NodeContext} of one attempt: collects the attempt's messages and tool calls, and journals every tool call
 * in the run's {@link ToolJournal} before it runs and after. Thread-safe.
 */
public final class AttemptContext<S> implements NodeContext<S> {
    private final String pipelineName;
    private final String runId;
    private final String nodeName;
    private final S state;
    private final int attempt;
    private final int maxAttempts;
    private final RetryFeedback feedback;
    private final List<Message> history;
    private final List<Message> added = new ArrayList<>();
    private final List<ToolCall> toolCalls = new ArrayList<>();
    private final Map<String, String> keys = new HashMap<>();
    private final Map<String, Integer> callsPerTool = new HashMap<>();
    private final ToolJournal journal;
    private final Map<String, JsonNode> answers;
    private final Supplier<Instant> clock;
    private int callSequence;
    private int questions;
    private InputRequest pendingRequest;

    public AttemptContext(
            String pipelineName,
            String runId,
            String nodeName,
            S state,
            int attempt,
            int maxAttempts,
            RetryFeedback feedback,
            List<Message> history,
            ToolJournal journal,
            Map<String, JsonNode> answers,
            Supplier<Instant> clock) {
        this.pipelineName = pipelineName;
        this.runId = runId;
        this.nodeName = nodeName;
        this.state = state;
        this.attempt = attempt;
        this.maxAttempts = maxAttempts;
        this.feedback = feedback;
        this.history = List.copyOf(history);
        this.journal = journal;
        this.answers = Map.copyOf(answers);
        this.clock = clock;
    }

    @Override
    public String pipelineName() {
        return pipelineName;
    }

    @Override
    public String runId() {
        return runId;
    }

    @Override
    public String nodeName() {
        return nodeName;
    }

    @Override
    public S state() {
        return state;
    }

    @Override
    public int attempt() {
        return attempt;
    }

    @Override
    public int maxAttempts() {
        return maxAttempts;
    }

    @Override
    public Optional<RetryFeedback> retryFeedback() {
        return Optional.ofNullable(feedback);
    }

    @Override
    public synchronized List<Message> messageHistory() {
        var all = new ArrayList<Message>(history.size() + added.size());
        all.addAll(history);
        all.addAll(added);
        return List.copyOf(all);
    }

    @Override
    public synchronized void addMessage(Message message) {
        added.add(Objects.requireNonNull(message, "message"));
    }

    @Override
    public void recordToolCall(ToolCall call) {
        Objects.requireNonNull(call, "call");
        String key = UUID.randomUUID().toString();
        journaled(() -> journal.intent(nodeName, attempt, call, key));
        synchronized (this) {
            toolCalls.add(call);
            keys.put(call.id(), key);
        }
    }

    @Override
    public JsonNode callTool(Tool tool, JsonNode arguments) throws Exception {
        Objects.requireNonNull(tool, "tool");
        ToolCall call;
        String key;
        synchronized (this) {
            call = new ToolCall(nodeName + "#" + attempt + "." + (++callSequence), tool.name(), arguments);
            int nth = callsPerTool.merge(tool.name(), 1, Integer::sum);
            key = tool instanceof KeyedTool keyed && keyed.idempotent()
                    ? runId + "/" + nodeName + "/" + tool.name() + "#" + nth
                    : UUID.randomUUID().toString();
        }
        journaled(() -> journal.intent(nodeName, attempt, call, key));
        synchronized (this) {
            toolCalls.add(call);
            keys.put(call.id(), key);
            added.add(Message.toolCall(call));
        }
        JsonNode result;
        try {
            result = tool instanceof KeyedTool keyed
                    ? keyed.execute(call.arguments(), key)
                    : tool.execute(call.arguments());
        } catch (Exception e) {
            try {
                journal.failure(nodeName, attempt, call.id(), e);
            } catch (RuntimeException journalError) {
                e.addSuppressed(journalError);
            }
            throw e;
        }
        JsonNode shown = result == null ? NullNode.getInstance() : result;
        journaled(() -> journal.result(nodeName, attempt, call.id(), shown));
        addMessage(
                Message.toolResult(call.id(), tool.name(), shown.isTextual() ? shown.textValue() : shown.toString()));
        return result;
    }

    /**
     * Runs a journal write; a write refused because another runner journaled since this one read the journal means the
     * run was taken over: this runner stops ({@link RunBusyException}) before it calls another tool.
     */
    private void journaled(Runnable write) {
        try {
            write.run();
        } catch (CheckpointConflictException e) {
            throw new RunBusyException(pipelineName, runId, null, e);
        }
    }

    @Override
    public JsonNode awaitInput(String question, AnswerSchema schema) {
        Objects.requireNonNull(question, "question");
        Objects.requireNonNull(schema, "schema");
        InputRequest request;
        synchronized (this) {
            String requestId = nodeName + "#" + (++questions);
            JsonNode answer = answers.get(requestId);
            List<String> problems = answer == null ? List.of() : schema.validate(answer);
            if (answer != null && problems.isEmpty()) {
                return answer;
            }
            request = new InputRequest(runId, nodeName, requestId, question, schema, clock.get(), problems);
            if (pendingRequest == null) {
                pendingRequest = request;
            }
        }
        throw new InputRequired(request);
    }

    /** The question this attempt stopped at, if it asked one that has no valid answer yet. */
    public synchronized Optional<InputRequest> pendingRequest() {
        return Optional.ofNullable(pendingRequest);
    }

    /** The idempotency key call {@code call} was made with (for its inverse). */
    public synchronized String keyOf(ToolCall call) {
        return keys.getOrDefault(call.id(), call.id());
    }

    @Override
    public synchronized List<ToolCall> toolCalls() {
        return List.copyOf(toolCalls);
    }

    /** The messages this attempt added. */
    public synchronized List<Message> addedMessages() {
        return List.copyOf(added);
    }

    @Override
    public String toString() {
        return "NodeContext[" + pipelineName + "/" + runId + " node=" + nodeName + " attempt=" + attempt + "/"
                + maxAttempts + "]";
    }
}
