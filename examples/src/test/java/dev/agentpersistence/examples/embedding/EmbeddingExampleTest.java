package dev.agentpersistence.examples.embedding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.InverseCall;
import dev.agentpersistence.examples.StorageSelection;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddingExampleTest {
    @TempDir
    Path directory;

    @Test
    void theRollbackCancelsEveryOrderPlacedSinceTheCheckpointAndRestoresTheLoop() throws Exception {
        var printed = new ByteArrayOutputStream();
        var store = new OrdersStore(directory.resolve("orders.db"));
        EmbeddingExample.Outcome outcome;
        try (var storage = StorageSelection.parse("file:" + directory.resolve("checkpoints"))
                .open()) {
            outcome = EmbeddingExample.run(
                    storage, store, "shopper-test", null, new PrintStream(printed, true, StandardCharsets.UTF_8));
        }

        assertThat(outcome.placedByMistake())
                .extracting(OrdersStore.Order::item)
                .containsExactlyInAnyOrder("keyboard", "mouse", "monitor");
        assertThat(outcome.rollback().isRestored()).isTrue();
        assertThat(outcome.rollback().failures()).isEmpty();
        assertThat(outcome.rollback().performed())
                .extracting(InverseCall::inverseToolName)
                .containsOnly("cancelOrder");
        assertThat(outcome.rollback().performed())
                .extracting(call -> call.original().arguments().get("orderId").asText())
                .as("newest first")
                .containsExactly("order-monitor", "order-mouse", "order-keyboard");
        assertThat(outcome.afterRollback()).isEmpty();
        assertThat(outcome.finalOrders())
                .containsExactly(
                        new OrdersStore.Order("order-keyboard", "keyboard", 2),
                        new OrdersStore.Order("order-mouse", "mouse", 1));
        assertThat(store.orders()).isEqualTo(outcome.finalOrders());
        assertThat(outcome.succeeded()).isTrue();

        assertThat(outcome.checkpoints())
                .extracting(cp -> cp.metadata().get("label"))
                .containsExactly("before-ordering", "ordered");
        AgentCheckpoint ordered = outcome.checkpoints().get(1);
        assertThat(ordered.messageHistory())
                .extracting(m -> m.role().name())
                .containsExactly("USER", "USER", "TOOL_CALL", "TOOL_RESULT", "TOOL_CALL", "TOOL_RESULT", "ASSISTANT");
        assertThat(ordered.messageHistory().get(0).content()).contains("monitor was not asked for");
        assertThat(ordered.state().get("request").asText()).isEqualTo(EmbeddingExample.REQUEST);
        assertThat(outcome.loop().step()).isEqualTo("done");

        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains(
                        "review       FAILED: monitor was not asked for",
                        "cancelOrder(order-monitor), cancelOrder(order-mouse), cancelOrder(order-keyboard)",
                        "orders       (none)");
    }

    @Test
    void theAdapterConvertsTheLoopsTurnsToMessagesAndBackExactly() throws Exception {
        var store = new OrdersStore(directory.resolve("orders.db"));
        var loop = new ShoppingAgentLoop(
                "shopper", new OrderPlanner(), List.of(dev.agentpersistence.Tool.of("placeOrder", args -> {
                    store.place(new OrdersStore.Order(
                            args.get("orderId").asText(),
                            args.get("item").asText(),
                            args.get("quantity").asInt()));
                    return com.fasterxml.jackson.databind.node.TextNode.valueOf("placed");
                })));
        loop.handle(EmbeddingExample.REQUEST);
        var context = new ShoppingAgentContext(loop);
        var history = context.messageHistory();
        var state = context.state();
        var turns = loop.turns();

        var copy = new ShoppingAgentLoop("shopper", new OrderPlanner(), List.of());
        new ShoppingAgentContext(copy).restore(new dev.agentpersistence.ExecutionPoint("done", history, null, state));

        assertThat(copy.turns()).isEqualTo(turns);
        assertThat(copy.memory()).isEqualTo(loop.memory());
        assertThat(copy.step()).isEqualTo("done");
        assertThat(history).filteredOn(m -> m.toolCall() != null).hasSize(3);
    }

    @Test
    void theOrdersStoreIsIdempotentBothWays() throws Exception {
        var store = new OrdersStore(directory.resolve("orders.db"));
        var order = new OrdersStore.Order("o-1", "pen", 3);
        store.place(order);
        store.place(order);
        assertThat(store.orders()).containsExactly(order);
        assertThat(store.cancel("o-1")).isTrue();
        assertThat(store.cancel("o-1")).isFalse();
        assertThat(store.orders()).isEmpty();
        assertThat(OrderReview.violations(EmbeddingExample.WANTED, List.of(new OrdersStore.Order("a", "keyboard", 1))))
                .containsExactly("keyboard: 1 ordered, 2 asked for", "mouse is missing");
    }
}
