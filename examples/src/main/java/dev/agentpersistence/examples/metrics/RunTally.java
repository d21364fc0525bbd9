package dev.agentpersistence.examples.metrics;

import dev.agentpersistence.pipeline.PipelineEvent;
import dev.agentpersistence.pipeline.PipelineListener;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** Counts one run's attempts, retries and failed conditions, for a one-line progress report. */
final class RunTally implements PipelineListener {
    private int attempts;
    private int retries;
    private int checkpointRetries;
    private final Map<String, Set<String>> failed = new LinkedHashMap<>();

    @Override
    public void onEvent(PipelineEvent event) {
        if (event instanceof PipelineEvent.NodeStarted) {
            attempts++;
        } else if (event instanceof PipelineEvent.RetryScheduled) {
            retries++;
        } else if (event instanceof PipelineEvent.ValidationFailed e) {
            e.violations()
                    .forEach(v -> failed.computeIfAbsent(e.node(), n -> new LinkedHashSet<>())
                            .add(v.condition()));
        } else if (event instanceof PipelineEvent.CheckpointSaveFailed e && e.willRetry()) {
            checkpointRetries++;
        }
    }

    /** E.g. {@code 4 attempts, 1 retry (concepts-writer broke: concept blocks), 1 checkpoint save retried}. */
    String describe() {
        return attempts + " attempts, " + retries + (retries == 1 ? " retry" : " retries")
                + (failed.isEmpty()
                        ? ""
                        : " ("
                                + failed.entrySet().stream()
                                        .map(e -> e.getKey() + " broke: " + String.join(", ", e.getValue()))
                                        .collect(Collectors.joining("; "))
                                + ")")
                + (checkpointRetries == 0 ? "" : ", " + checkpointRetries + " checkpoint save retried");
    }
}
