package dev.agentpersistence.examples.embedding;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.InverseCall;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.RollbackReport;
import dev.agentpersistence.RollbackToolRegistry;
import dev.agentpersistence.Tool;
import dev.agentpersistence.examples.ConsoleOutput;
import dev.agentpersistence.examples.ExampleCommands;
import dev.agentpersistence.examples.ExampleFiles;
import dev.agentpersistence.examples.StorageSelection;
import dev.agentpersistence.observation.AgentObservations;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Embeds agent-persistence in a hand-rolled agent loop ({@link ShoppingAgentLoop}) through an
 * {@link dev.agentpersistence.AgentContext} adapter ({@link ShoppingAgentContext}): checkpoint before acting, let the
 * agent place orders in a real SQLite store, catch its mistake with a review, roll back (the {@code cancelOrder}
 * inverse undoes every {@code placeOrder} made since, newest first, and the loop's conversation is restored), then let
 * it try again with the review's feedback.
 */
@Command(
        name = "embedding-example",
        mixinStandardHelpOptions = true,
        description = "A hand-rolled agent loop with tool calls, a checkpoint and a rollback that undoes its orders.")
public final class EmbeddingExample implements Callable<Integer> {
    /** What the user asks for. */
    public static final String REQUEST = "Order 2 keyboards and 1 mouse for the new hire.";
    /** The quantities the request asks for, by item. */
    public static final Map<String, Integer> WANTED = Map.of("keyboard", 2, "mouse", 1);

    @Option(
            names = "--storage",
            paramLabel = "<storage>",
            description = "Where checkpoints go, as for the demo (default: file:<examples dir>/embedding/checkpoints).")
    private String storage;

    /** Runs the example. */
    public static void main(String[] args) {
        ExampleCommands.run(new EmbeddingExample(), args);
    }

    @Override
    public Integer call() throws Exception {
        StorageSelection selection = storage == null
                ? StorageSelection.parse("file:" + ExampleFiles.path("embedding/checkpoints"))
                : StorageSelection.parse(storage);
        Path orders = ExampleFiles.path("embedding/orders.db");
        Files.createDirectories(orders.getParent());
        Files.deleteIfExists(orders);
        PrintStream out = ConsoleOutput.utf8();
        out.println("embedding example: a hand-rolled agent loop, its tool calls, a checkpoint and a rollback");
        out.println("  checkpoints  " + selection);
        out.println("  orders       SQLite " + orders);
        try (PersistenceStorageProvider<CheckpointFilter> provider = selection.open()) {
            Outcome outcome = run(provider, new OrdersStore(orders), "shopper-1", null, out);
            return outcome.succeeded() ? 0 : 1;
        }
    }

    /**
     * What happened.
     *
     * @param placedByMistake the orders after the first attempt
     * @param rollback the rollback's report
     * @param afterRollback the orders right after the rollback
     * @param finalOrders the orders after the second attempt
     * @param checkpoints the agent's checkpoints at the end
     * @param loop the agent loop at the end
     */
    public record Outcome(
            List<OrdersStore.Order> placedByMistake,
            RollbackReport rollback,
            List<OrdersStore.Order> afterRollback,
            List<OrdersStore.Order> finalOrders,
            List<AgentCheckpoint> checkpoints,
            ShoppingAgentLoop loop) {
        /** Whether the rollback emptied the store and the second attempt ordered exactly what was asked for. */
        public boolean succeeded() {
            return afterRollback.isEmpty()
                    && OrderReview.violations(WANTED, finalOrders).isEmpty();
        }
    }

    /**
     * Runs the scenario for agent {@code agentId} over {@code storage} and {@code store}.
     *
     * @param registry where to record metrics, or {@code null}
     */
    public static Outcome run(
            PersistenceStorageProvider<?> storage,
            OrdersStore store,
            String agentId,
            MeterRegistry registry,
            PrintStream out)
            throws Exception {
        Objects.requireNonNull(store, "store");
        Tool placeOrder = Tool.of("placeOrder", args -> {
            store.place(new OrdersStore.Order(
                    args.get("orderId").asText(),
                    args.get("item").asText(),
                    args.get("quantity").asInt()));
            return TextNode.valueOf("placed " + args.get("orderId").asText());
        });
        Tool cancelOrder = Tool.of(
                "cancelOrder",
                args -> TextNode.valueOf(store.cancel(args.get("orderId").asText()) ? "cancelled" : "no such order"));
        var builder = AgentPersistence.builder()
                .storage(storage)
                .rollbackTools(RollbackToolRegistry.builder()
                        .registerRollback(placeOrder, cancelOrder)
                        .build());
        if (registry != null) {
            builder.observationRegistry(AgentObservations.registryFor(registry));
        }
        AgentPersistence persistence = builder.build();
        persistence.storage().deleteCheckpoints(agentId);

        var loop = new ShoppingAgentLoop(agentId, new OrderPlanner(), List.of(placeOrder));
        var context = new ShoppingAgentContext(loop);
        AgentCheckpoint before = persistence.createCheckpoint(
                context, context.currentNodeId(), null, null, Map.of("label", "before-ordering"));
        out.println("  checkpoint v" + before.version() + " (before-ordering), then the agent handles: " + REQUEST);

        loop.handle(REQUEST);
        List<OrdersStore.Order> mistaken = store.orders();
        out.println("  tool calls   " + toolCalls(loop));
        out.println("  orders       " + mistaken);
        List<String> problems = OrderReview.violations(WANTED, mistaken);
        out.println("  review       " + (problems.isEmpty() ? "ok" : "FAILED: " + String.join("; ", problems)));

        RollbackReport report = persistence.rollbackToCheckpoint(before.checkpointId(), context);
        out.println("  rollback     to v" + before.version() + ": "
                + report.performed().stream().map(EmbeddingExample::describe).collect(Collectors.joining(", "))
                + " (newest first); conversation back to "
                + loop.turns().size() + " turn(s)");
        List<OrdersStore.Order> afterRollback = store.orders();
        out.println("  orders       " + (afterRollback.isEmpty() ? "(none)" : afterRollback));

        loop.tell("Review: " + String.join("; ", problems) + ". Order only what the request lists.");
        loop.handle(REQUEST);
        List<OrdersStore.Order> finalOrders = store.orders();
        AgentCheckpoint ordered =
                persistence.createCheckpoint(context, context.currentNodeId(), null, null, Map.of("label", "ordered"));
        out.println("  retry        with the review as feedback: " + toolCalls(loop));
        out.println("  orders       " + finalOrders + ", review "
                + (OrderReview.violations(WANTED, finalOrders).isEmpty() ? "ok" : "FAILED"));
        out.println("  checkpoint v" + ordered.version() + " (ordered): "
                + ordered.messageHistory().size() + " messages");
        return new Outcome(mistaken, report, afterRollback, finalOrders, persistence.checkpoints(agentId), loop);
    }

    private static String toolCalls(ShoppingAgentLoop loop) {
        return loop.turns().stream()
                .filter(t -> t instanceof ShoppingAgentLoop.Turn.ToolInvoked)
                .map(t -> (ShoppingAgentLoop.Turn.ToolInvoked) t)
                .map(t -> t.tool() + "(" + t.arguments().get("item").asText() + " x"
                        + t.arguments().get("quantity").asInt() + ")")
                .collect(Collectors.joining(", "));
    }

    private static String describe(InverseCall call) {
        return call.inverseToolName() + "("
                + call.original().arguments().get("orderId").asText() + ")";
    }
}
