package dev.agentpersistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SimpleAgentContextTest {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    @Test
    void holdsHistoryStateAndNode() {
        var ctx = new SimpleAgentContext("agent-1");
        assertThat(ctx.agentId()).isEqualTo("agent-1");
        assertThat(ctx.messageHistory()).isEmpty();
        assertThat(ctx.state()).isEmpty();
        assertThat(ctx.currentNodeId()).isNull();

        Message hi = Message.user("hi");
        ctx.append(hi).putState("b", JSON.numberNode(2)).putState("a", null).currentNodeId("n1");
        var call = ctx.recordToolCall("search", JSON.objectNode().put("q", "x"));

        assertThat(call.id()).isNotBlank();
        assertThat(ctx.messageHistory())
                .usingElementComparator(SimpleAgentContextTest::byContent)
                .containsExactly(Message.user("hi"), Message.toolCall(call));
        assertThat(ctx.state()).containsExactly(Map.entry("a", JSON.nullNode()), Map.entry("b", JSON.numberNode(2)));
        assertThat(ctx.currentNodeId()).isEqualTo("n1");
        ctx.removeState("a");
        assertThat(ctx.state()).containsOnlyKeys("b");
        assertThat(ctx.toString()).contains("agent-1").contains("n1");
    }

    @Test
    void snapshotsAreImmutableAndDetached() {
        var ctx = new SimpleAgentContext("agent-1").append(Message.user("one"));
        var history = ctx.messageHistory();
        var state = ctx.state();
        ctx.append(Message.user("two")).putState("k", JSON.textNode("v"));

        assertThat(history).hasSize(1);
        assertThat(state).isEmpty();
        assertThatThrownBy(() -> history.add(Message.user("x"))).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ctx.state().put("x", JSON.nullNode()))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void callToolRecordsTheCallAndItsResult() throws Exception {
        var ctx = new SimpleAgentContext("agent-1");
        var tool = Tool.of(
                "createUser",
                args -> JSON.objectNode().put("created", args.path("name").asText()));

        var result = ctx.callTool(tool, JSON.objectNode().put("name", "Alex"));

        assertThat(result.path("created").asText()).isEqualTo("Alex");
        var history = ctx.messageHistory();
        assertThat(history).hasSize(2);
        var call = history.get(0).toolCall();
        assertThat(call.toolName()).isEqualTo("createUser");
        assertThat(call.arguments()).isEqualTo(JSON.objectNode().put("name", "Alex"));
        assertThat(history.get(1).sameContentAs(Message.toolResult(call.id(), "createUser", "{\"created\":\"Alex\"}")))
                .isTrue();
    }

    @Test
    void aThrowingToolLeavesItsCallRecorded() {
        var ctx = new SimpleAgentContext("agent-1");
        var tool = Tool.of("createUser", args -> {
            throw new IllegalStateException("half done");
        });
        assertThatThrownBy(() -> ctx.callTool(tool, JSON.objectNode())).hasMessage("half done");
        assertThat(ctx.messageHistory())
                .singleElement()
                .extracting(Message::role)
                .isEqualTo(Message.Role.TOOL_CALL);
    }

    @Test
    void restoreReplacesEverything() {
        var ctx = new SimpleAgentContext("agent-1")
                .append(Message.user("old"))
                .putState("old", JSON.textNode("x"))
                .currentNodeId("old");
        Message fresh = Message.user("new");
        ctx.restore(new ExecutionPoint("new", List.of(fresh), JSON.textNode("in"), Map.of("new", JSON.numberNode(1))));

        assertThat(ctx.messageHistory()).containsExactly(fresh);
        assertThat(ctx.state()).containsExactly(Map.entry("new", JSON.numberNode(1)));
        assertThat(ctx.currentNodeId()).isEqualTo("new");
        assertThat(ctx.input()).isEqualTo(JSON.textNode("in"));
    }

    @Test
    void concurrentAppendsAreAllKept() throws Exception {
        var ctx = new SimpleAgentContext("agent-1");
        var pool = Executors.newFixedThreadPool(4);
        var start = new CountDownLatch(1);
        try {
            for (int t = 0; t < 4; t++) {
                int thread = t;
                pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < 500; i++) {
                        ctx.append(Message.user(thread + ":" + i)).putState(thread + ":" + i, JSON.numberNode(i));
                        ctx.messageHistory();
                    }
                    return null;
                });
            }
            start.countDown();
        } finally {
            pool.shutdown();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(ctx.messageHistory()).hasSize(2000).doesNotHaveDuplicates();
        assertThat(ctx.state()).hasSize(2000);
    }

    @Test
    void invalidAgentIdsAreRejected() {
        assertThatThrownBy(() -> new SimpleAgentContext("")).isInstanceOf(InvalidIdentifierException.class);
        assertThatThrownBy(() -> new SimpleAgentContext(null)).isInstanceOf(InvalidIdentifierException.class);
    }

    /** Orders messages equal apart from their ids as equal. */
    private static int byContent(Message a, Message b) {
        return a.sameContentAs(b) ? 0 : 1;
    }
}
