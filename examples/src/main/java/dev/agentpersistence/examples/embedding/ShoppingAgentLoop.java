package dev.agentpersistence.examples.embedding;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.Tool;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A hand-rolled agent loop, the kind an application writes without a framework: its own turn types, its own memory, and
 * a tool dispatcher by name. It knows nothing about checkpoints; {@link ShoppingAgentContext} adapts it to
 * {@link dev.agentpersistence.AgentContext}.
 *
 * <p>Each {@link #handle(String)} asks the {@link OrderPlanner} what to do for the request and carries the plan out:
 * one {@code placeOrder} tool call per planned order, then a reply.
 */
public final class ShoppingAgentLoop {

    /** One entry of the loop's conversation. */
    public sealed interface Turn {
        /** The user said something. */
        record UserSays(String text) implements Turn {}

        /** The agent answered. */
        record AgentSays(String text) implements Turn {}

        /** The agent called a tool. */
        record ToolInvoked(String callId, String tool, JsonNode arguments) implements Turn {}

        /** A tool returned. */
        record ToolReturned(String callId, String tool, String result) implements Turn {}
    }

    private final String id;
    private final OrderPlanner planner;
    private final Map<String, Tool> tools = new LinkedHashMap<>();
    private final List<Turn> turns = new ArrayList<>();
    private final Map<String, String> memory = new LinkedHashMap<>();
    private String step = "idle";
    private int calls;

    /** A loop called {@code id} that plans with {@code planner} and can call {@code tools}. */
    public ShoppingAgentLoop(String id, OrderPlanner planner, List<Tool> tools) {
        this.id = Objects.requireNonNull(id, "id");
        this.planner = Objects.requireNonNull(planner, "planner");
        tools.forEach(tool -> this.tools.put(tool.name(), tool));
    }

    /** Handles one user request: plans, calls the tools, replies. */
    public void handle(String request) throws Exception {
        turns.add(new Turn.UserSays(request));
        memory.put("request", request);
        step = "ordering";
        for (OrderPlanner.PlannedCall call : planner.plan(request, List.copyOf(turns))) {
            Tool tool = tools.get(call.tool());
            if (tool == null) {
                throw new IllegalStateException("the planner asked for unknown tool " + call.tool());
            }
            String callId = "call-" + (++calls);
            turns.add(new Turn.ToolInvoked(callId, call.tool(), call.arguments()));
            JsonNode result = tool.execute(call.arguments());
            turns.add(new Turn.ToolReturned(callId, call.tool(), result.asText()));
        }
        turns.add(new Turn.AgentSays("Done: "
                + (turns.stream().filter(t -> t instanceof Turn.ToolInvoked).count()) + " tool call(s) made for \""
                + request + "\"."));
        step = "done";
    }

    /** Adds a user turn without handling it (for feedback the application gives the agent). */
    public void tell(String text) {
        turns.add(new Turn.UserSays(text));
    }

    public String id() {
        return id;
    }

    /** The conversation, oldest first (a copy). */
    public List<Turn> turns() {
        return List.copyOf(turns);
    }

    /** The loop's key/value memory (a copy). */
    public Map<String, String> memory() {
        return Map.copyOf(memory);
    }

    /** Where the loop is: {@code idle}, {@code ordering} or {@code done}. */
    public String step() {
        return step;
    }

    /** Replaces the conversation, memory and step, as when restoring a checkpoint. */
    void reset(List<Turn> turns, Map<String, String> memory, String step) {
        this.turns.clear();
        this.turns.addAll(turns);
        this.memory.clear();
        this.memory.putAll(memory);
        this.step = step == null ? "idle" : step;
    }
}
