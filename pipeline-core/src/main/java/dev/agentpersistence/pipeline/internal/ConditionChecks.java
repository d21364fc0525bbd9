package dev.agentpersistence.pipeline.internal;

import dev.agentpersistence.pipeline.Condition;
import dev.agentpersistence.pipeline.Violation;
import java.util.ArrayList;
import java.util.List;

/** Evaluates a node's conditions; a condition that throws counts as violated, with the exception as message. */
public final class ConditionChecks {
    private ConditionChecks() {}

    /** Every violation of every condition, in condition order. */
    public static <S> List<Violation> check(List<Condition<S>> conditions, S state) {
        var violations = new ArrayList<Violation>();
        for (Condition<S> condition : conditions) {
            try {
                List<Violation> found = condition.check(state);
                if (found == null) {
                    violations.add(new Violation(condition.name(), "condition returned null instead of a list"));
                } else {
                    violations.addAll(found);
                }
            } catch (RuntimeException e) {
                violations.add(new Violation(condition.name(), "could not be evaluated: " + e));
            }
        }
        return List.copyOf(violations);
    }
}
