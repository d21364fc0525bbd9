package dev.agentpersistence.examples.embedding;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * The "model" of the shopping agent, scripted: for "2 keyboards and 1 mouse" it plans those orders, plus, unless the
 * conversation has feedback about it, a monitor nobody asked for (the mistake the application's review catches).
 */
public final class OrderPlanner {

    /** A tool call the planner wants. */
    public record PlannedCall(String tool, JsonNode arguments) {}

    /** The calls for {@code request}, given the conversation so far. */
    public List<PlannedCall> plan(String request, List<ShoppingAgentLoop.Turn> turns) {
        boolean warned = turns.stream()
                .anyMatch(t -> t instanceof ShoppingAgentLoop.Turn.UserSays says
                        && says.text().contains("not asked for"));
        var calls = new ArrayList<PlannedCall>();
        calls.add(order("keyboard", 2));
        calls.add(order("mouse", 1));
        if (!warned) {
            calls.add(order("monitor", 1));
        }
        return calls;
    }

    /** A {@code placeOrder} call; the order id is the idempotency key the inverse cancels by. */
    private static PlannedCall order(String item, int quantity) {
        return new PlannedCall(
                "placeOrder",
                JsonNodeFactory.instance
                        .objectNode()
                        .put("orderId", "order-" + item)
                        .put("item", item)
                        .put("quantity", quantity));
    }
}
