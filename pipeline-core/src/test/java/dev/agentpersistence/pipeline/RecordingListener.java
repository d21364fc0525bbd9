package dev.agentpersistence.pipeline;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/** Keeps every event, for assertions on what happened and in which order. */
final class RecordingListener implements PipelineListener {
    private final List<PipelineEvent> events = new CopyOnWriteArrayList<>();

    @Override
    public void onEvent(PipelineEvent event) {
        events.add(event);
    }

    List<PipelineEvent> events() {
        return List.copyOf(events);
    }

    <E extends PipelineEvent> List<E> of(Class<E> type) {
        return events.stream().filter(type::isInstance).map(type::cast).collect(Collectors.toList());
    }

    /** The simple class names of the events, e.g. {@code NodeStarted}, in order. */
    List<String> names() {
        return events.stream().map(e -> e.getClass().getSimpleName()).collect(Collectors.toList());
    }
}
