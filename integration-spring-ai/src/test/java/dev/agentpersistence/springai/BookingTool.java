package dev.agentpersistence.springai;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentpersistence.Tool;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * A {@code book} tool with a side effect (a list of bookings) and its inverse, {@link #cancel()}, as
 * {@link dev.agentpersistence.RollbackToolRegistry} calls it: with the booking call's arguments.
 */
final class BookingTool implements ToolCallback {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final List<String> bookings = new CopyOnWriteArrayList<>();

    @Override
    public ToolDefinition getToolDefinition() {
        return ToolDefinition.builder()
                .name("book")
                .description("Books a table for a guest")
                .inputSchema(
                        "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}},\"required\":[\"name\"]}")
                .build();
    }

    @Override
    public String call(String toolInput) {
        try {
            String name = JSON.readTree(toolInput).get("name").asText();
            bookings.add(name);
            return "table booked for " + name;
        } catch (Exception e) {
            throw new IllegalArgumentException("not a booking: " + toolInput, e);
        }
    }

    /** The inverse: removes the booking the arguments name. */
    Tool cancel() {
        return Tool.of("cancel", arguments -> {
            bookings.remove(arguments.get("name").asText());
            return TextNode.valueOf("cancelled");
        });
    }

    /** The current bookings. */
    List<String> bookings() {
        return List.copyOf(bookings);
    }
}
