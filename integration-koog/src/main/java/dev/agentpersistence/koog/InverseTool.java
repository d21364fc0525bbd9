package dev.agentpersistence.koog;

import ai.koog.agents.core.tools.Tool;
import ai.koog.agents.core.tools.ToolDescriptor;
import ai.koog.serialization.JSONObject;
import ai.koog.serialization.JSONSerializer;
import ai.koog.serialization.TypeToken;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import kotlin.coroutines.Continuation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One of our tools as a Koog tool for Koog's rollback registry: it takes the undone call's arguments as they are (a
 * JSON object) and hands them to our tool. Without a tool it only carries the name of the tool being undone, which is
 * all Koog's registry looks a call up by; it is never run.
 */
final class InverseTool extends Tool<JSONObject, String> {
    private static final Logger LOG = LoggerFactory.getLogger(InverseTool.class);

    private final dev.agentpersistence.Tool inverse;

    private InverseTool(String name, String description, dev.agentpersistence.Tool inverse) {
        super(
                TypeToken.of(JSONObject.class),
                TypeToken.of(String.class),
                new ToolDescriptor(name, description, List.of(), List.of(), null),
                Map.of());
        this.inverse = inverse;
    }

    /** The key under which Koog's registry finds the inverse of {@code toolName}. */
    static InverseTool undoing(String toolName) {
        return new InverseTool(toolName, "The tool whose calls a rollback undoes.", null);
    }

    /** Our {@code inverse}, run by Koog's rollback with the undone call's arguments. */
    static InverseTool running(dev.agentpersistence.Tool inverse) {
        return new InverseTool(inverse.name(), "Undoes the side effect of a tool call.", inverse);
    }

    @Override
    public JSONObject decodeArgs(JSONObject arguments, JSONSerializer serializer) {
        return arguments;
    }

    /**
     * Runs our tool. Like our registry, a failing inverse does not stop the others: the failure is logged and returned
     * as the result, and Koog's rollback goes on with the next call.
     */
    @Override
    public Object execute(JSONObject arguments, Continuation<? super String> continuation) {
        if (inverse == null) {
            throw new IllegalStateException(
                    "'" + getName() + "' only names the tool a rollback undoes; it is never run");
        }
        try {
            JsonNode result = inverse.execute(KoogJson.element(arguments));
            return result == null ? "" : result.toString();
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.warn("Inverse tool '{}' failed during a Koog rollback: {}", inverse.name(), e.toString());
            return "failed: " + e;
        }
    }
}
