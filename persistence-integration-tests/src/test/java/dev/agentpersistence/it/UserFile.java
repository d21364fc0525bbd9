package dev.agentpersistence.it;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentpersistence.Tool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/** A real user store for rollback scenarios: one name a line in a file, replaced atomically on each change. */
record UserFile(Path file) {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    synchronized List<String> users() throws IOException {
        return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
    }

    private synchronized void change(String name, boolean add) throws IOException {
        var users = new ArrayList<>(users());
        if (add) {
            users.add(name);
        } else {
            users.remove(name);
        }
        var tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, users, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Adds {@code arguments.name}. */
    Tool createUser() {
        return Tool.of("createUser", args -> {
            change(args.path("name").asText(), true);
            return JSON.textNode("created " + args.path("name").asText());
        });
    }

    /** Removes {@code arguments.name}; the inverse of {@link #createUser()}. */
    Tool removeUser() {
        return Tool.of("removeUser", args -> {
            change(args.path("name").asText(), false);
            return JSON.textNode("removed " + args.path("name").asText());
        });
    }
}
