package dev.agentpersistence.examples.embedding;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The application's rule-based check of what the agent ordered against what was asked for. */
public final class OrderReview {
    private OrderReview() {}

    /** What is wrong with {@code orders} given the {@code wanted} quantities by item; empty when they match. */
    public static List<String> violations(Map<String, Integer> wanted, List<OrdersStore.Order> orders) {
        var ordered = new TreeMap<String, Integer>();
        orders.forEach(order -> ordered.merge(order.item(), order.quantity(), Integer::sum));
        var problems = new ArrayList<String>();
        ordered.forEach((item, quantity) -> {
            Integer expected = wanted.get(item);
            if (expected == null) {
                problems.add(item + " was not asked for");
            } else if (!expected.equals(quantity)) {
                problems.add(item + ": " + quantity + " ordered, " + expected + " asked for");
            }
        });
        new TreeMap<>(wanted).forEach((item, quantity) -> {
            if (!ordered.containsKey(item)) {
                problems.add(item + " is missing");
            }
        });
        return problems;
    }
}
