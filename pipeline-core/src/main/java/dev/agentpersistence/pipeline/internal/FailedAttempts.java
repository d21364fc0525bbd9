package dev.agentpersistence.pipeline.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.pipeline.RetryFeedback;
import dev.agentpersistence.pipeline.Violation;
import java.util.ArrayList;
import java.util.List;

/**
 * What the failed attempts of a node broke, kept in the checkpoint of the attempt that passed (metadata {@value #KEY}),
 * so a reader of the run sees why the node needed more than one attempt. The value is a JSON array, oldest attempt
 * first, of {@code {"attempt": n, "violations": [{"condition": …, "message": …}], "error": …}} ({@code error} only when
 * the attempt threw). Bounded: the last {@value #MAX_ATTEMPTS} failed attempts, the first {@value #MAX_VIOLATIONS}
 * violations of each (a count {@code "omitted"} says how many were left out), each text cut at {@value #MAX_TEXT}
 * characters; a field {@code "omittedAttempts"} on the first entry counts the older attempts left out.
 */
public final class FailedAttempts {
    /** Metadata key of a node checkpoint: its node's failed attempts. */
    public static final String KEY = "pipeline.failed-attempts";

    static final int MAX_ATTEMPTS = 5;
    static final int MAX_VIOLATIONS = 5;
    static final int MAX_TEXT = 300;

    private final List<RetryFeedback> failed = new ArrayList<>();

    /** Records the failed attempt {@code feedback} reports. */
    public void add(RetryFeedback feedback) {
        failed.add(feedback);
    }

    /** Whether no failed attempt was recorded. */
    public boolean isEmpty() {
        return failed.isEmpty();
    }

    /** The metadata value: the recorded attempts as bounded JSON. */
    public String encode() {
        ArrayNode json = JsonNodeFactory.instance.arrayNode();
        int from = Math.max(0, failed.size() - MAX_ATTEMPTS);
        for (int i = from; i < failed.size(); i++) {
            RetryFeedback attempt = failed.get(i);
            ObjectNode entry = json.addObject().put("attempt", attempt.retry());
            if (i == from && from > 0) {
                entry.put("omittedAttempts", from);
            }
            ArrayNode violations = entry.putArray("violations");
            List<Violation> all = attempt.violations();
            for (Violation violation : all.subList(0, Math.min(all.size(), MAX_VIOLATIONS))) {
                violations
                        .addObject()
                        .put("condition", cut(violation.condition()))
                        .put("message", cut(violation.message()));
            }
            if (all.size() > MAX_VIOLATIONS) {
                entry.put("omitted", all.size() - MAX_VIOLATIONS);
            }
            if (attempt.exception() != null) {
                entry.put("error", cut(String.valueOf(attempt.exception())));
            }
        }
        return json.toString();
    }

    private static String cut(String text) {
        return text.length() <= MAX_TEXT ? text : text.substring(0, MAX_TEXT - 1) + "…";
    }
}
