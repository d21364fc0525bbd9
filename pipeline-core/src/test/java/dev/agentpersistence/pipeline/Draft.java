package dev.agentpersistence.pipeline;

import java.util.ArrayList;
import java.util.List;

/** A small immutable state for pipelines over the Jackson codec. */
record Draft(String text, List<String> steps) {
    Draft {
        steps = List.copyOf(steps);
    }

    static Draft empty() {
        return new Draft("", List.of());
    }

    Draft append(String more, String step) {
        var next = new ArrayList<>(steps);
        next.add(step);
        return new Draft(text + more, next);
    }

    static final StateCodec<Draft> CODEC = StateCodec.jackson(Draft.class);
}
