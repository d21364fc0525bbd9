package dev.agentpersistence.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.Tool;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** A tool with a side effect for the AI Service tests, and its inverse for rollbacks. */
final class Users {
    final Set<String> names = ConcurrentHashMap.newKeySet();

    @dev.langchain4j.agent.tool.Tool("Creates a user account")
    String createUser(String name) {
        names.add(name);
        return "created " + name;
    }

    /** The inverse of {@link #createUser}: receives the same arguments. */
    Tool deleteUser() {
        return Tool.of("deleteUser", (JsonNode arguments) -> {
            names.remove(arguments.get("name").asText());
            return null;
        });
    }
}
