package dev.agentpersistence.springai;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

/** A deterministic {@code weather} tool: "sunny, 21°C" for every city; remembers its inputs. */
final class WeatherTool implements ToolCallback {
    private final List<String> inputs = new CopyOnWriteArrayList<>();

    @Override
    public ToolDefinition getToolDefinition() {
        return ToolDefinition.builder()
                .name("weather")
                .description("The current weather in a city")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}},"
                        + "\"required\":[\"city\"]}")
                .build();
    }

    @Override
    public String call(String toolInput) {
        inputs.add(toolInput);
        Matcher city = Pattern.compile("\"city\":\"(\\p{L}+)\"").matcher(toolInput);
        return city.find() ? "sunny, 21°C" : "unknown city";
    }

    /** The arguments of every call, in order. */
    List<String> inputs() {
        return List.copyOf(inputs);
    }
}
