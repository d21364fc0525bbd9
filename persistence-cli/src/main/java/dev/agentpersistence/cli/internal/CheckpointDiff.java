package dev.agentpersistence.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.Message;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What changed from one checkpoint of an agent to another: messages added and removed (by message id, which stays the
 * same across checkpoints), the node, and the state and metadata keys added, removed or changed.
 *
 * @param from the older checkpoint
 * @param to the newer checkpoint
 * @param added the messages of {@code to} that {@code from} does not have, with their index in {@code to}
 * @param removed the messages of {@code from} that {@code to} does not have, with their index in {@code from}
 * @param stateAdded state keys only {@code to} has
 * @param stateRemoved state keys only {@code from} has
 * @param stateChanged state keys both have with different values
 * @param metadataChanged metadata keys added, removed or changed
 */
public record CheckpointDiff(
        AgentCheckpoint from,
        AgentCheckpoint to,
        List<Indexed> added,
        List<Indexed> removed,
        Set<String> stateAdded,
        Set<String> stateRemoved,
        Set<String> stateChanged,
        Set<String> metadataChanged) {

    /** A message and its place in its checkpoint's history. */
    public record Indexed(int index, Message message) {}

    /** Compares {@code from} with {@code to}. */
    public static CheckpointDiff of(AgentCheckpoint from, AgentCheckpoint to) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        return new CheckpointDiff(
                from,
                to,
                missingFrom(to.messageHistory(), from.messageHistory()),
                missingFrom(from.messageHistory(), to.messageHistory()),
                onlyIn(to.state(), from.state()),
                onlyIn(from.state(), to.state()),
                changed(from.state(), to.state()),
                metadataChanges(from.metadata(), to.metadata()));
    }

    /** Whether the node changed. */
    public boolean nodeChanged() {
        return !Objects.equals(from.nodeId(), to.nodeId());
    }

    /** The difference as JSON. */
    public JsonNode toJson() {
        ObjectNode json = Json.object();
        json.put("agentId", to.agentId());
        json.set("from", side(from));
        json.set("to", side(to));
        json.put("nodeChanged", nodeChanged());
        json.set("messagesAdded", messages(added));
        json.set("messagesRemoved", messages(removed));
        ObjectNode state = json.putObject("state");
        var addedKeys = state.putArray("added");
        stateAdded.forEach(addedKeys::add);
        var removedKeys = state.putArray("removed");
        stateRemoved.forEach(removedKeys::add);
        var changedKeys = state.putArray("changed");
        stateChanged.forEach(changedKeys::add);
        ObjectNode values = state.putObject("changes");
        stateChanged.forEach(key -> values.putObject(key)
                .<ObjectNode>set("from", from.state().get(key))
                .set("to", to.state().get(key)));
        var metadataKeys = json.putArray("metadataChanged");
        metadataChanged.forEach(metadataKeys::add);
        ObjectNode metadataValues = json.putObject("metadataChanges");
        metadataChanged.forEach(key -> metadataValues
                .putObject(key)
                .put("from", from.metadata().get(key))
                .put("to", to.metadata().get(key)));
        return json;
    }

    /**
     * The difference for people: each changed state key and metadata key with its old and new value, every stored value
     * escaped for the terminal ({@link TerminalText}).
     */
    public void print(PrintWriter out) {
        out.println("agent " + e(to.agentId()) + ": version " + from.version() + " -> " + to.version());
        out.println("node: "
                + (nodeChanged() ? e(from.nodeId()) + " -> " + e(to.nodeId()) : e(to.nodeId()) + " (unchanged)"));
        out.println("messages: " + added.size() + " added, " + removed.size() + " removed");
        added.forEach(m -> out.println(ConversationPrinter.line(m.index(), m.message(), "  + ")));
        removed.forEach(m -> out.println(ConversationPrinter.line(m.index(), m.message(), "  - ")));
        out.println("state: " + keys("added", stateAdded) + ", " + keys("removed", stateRemoved) + ", "
                + keys("changed", stateChanged));
        stateAdded.forEach(key ->
                out.println("  + " + e(key) + " = " + e(Json.line(to.state().get(key)))));
        stateRemoved.forEach(key ->
                out.println("  - " + e(key) + " = " + e(Json.line(from.state().get(key)))));
        stateChanged.forEach(key ->
                out.println("  ~ " + e(key) + ": " + e(Json.line(from.state().get(key))) + " -> "
                        + e(Json.line(to.state().get(key)))));
        if (!metadataChanged.isEmpty()) {
            out.println("metadata changed: "
                    + String.join(
                            ", ",
                            metadataChanged.stream().map(CheckpointDiff::e).toList()));
            metadataChanged.forEach(key -> out.println(
                    "  ~ " + e(key) + ": " + value(from.metadata(), key) + " -> " + value(to.metadata(), key)));
        }
        out.flush();
    }

    private static String value(Map<String, String> metadata, String key) {
        return metadata.containsKey(key) ? e(metadata.get(key)) : "(none)";
    }

    private static String keys(String what, Set<String> keys) {
        return keys.isEmpty()
                ? "none " + what
                : what + " "
                        + String.join(", ", keys.stream().map(CheckpointDiff::e).toList());
    }

    private static String e(String text) {
        return TerminalText.escape(text);
    }

    private static ObjectNode side(AgentCheckpoint checkpoint) {
        ObjectNode side = Json.object();
        side.put("version", checkpoint.version());
        side.put("checkpointId", checkpoint.checkpointId());
        side.put("nodeId", checkpoint.nodeId());
        side.put("createdAt", checkpoint.createdAt().toString());
        side.put("messages", checkpoint.messageHistory().size());
        return side;
    }

    private static JsonNode messages(List<Indexed> messages) {
        var array = Json.array();
        for (Indexed indexed : messages) {
            ObjectNode entry = array.addObject();
            entry.put("index", indexed.index());
            entry.set("message", Json.message(indexed.message()));
        }
        return array;
    }

    private static List<Indexed> missingFrom(List<Message> messages, List<Message> other) {
        Set<String> ids = new HashSet<>();
        other.forEach(message -> ids.add(message.id()));
        var missing = new ArrayList<Indexed>();
        for (int i = 0; i < messages.size(); i++) {
            if (!ids.contains(messages.get(i).id())) {
                missing.add(new Indexed(i, messages.get(i)));
            }
        }
        return List.copyOf(missing);
    }

    private static Set<String> onlyIn(Map<String, ?> map, Map<String, ?> other) {
        var keys = new TreeSet<>(map.keySet());
        keys.removeAll(other.keySet());
        return keys;
    }

    private static Set<String> changed(Map<String, ?> before, Map<String, ?> after) {
        var keys = new TreeSet<String>();
        before.forEach((key, value) -> {
            if (after.containsKey(key) && !Objects.equals(value, after.get(key))) {
                keys.add(key);
            }
        });
        return keys;
    }

    private static Set<String> metadataChanges(Map<String, String> before, Map<String, String> after) {
        var keys = new TreeSet<String>();
        keys.addAll(onlyIn(before, after));
        keys.addAll(onlyIn(after, before));
        keys.addAll(changed(before, after));
        return keys;
    }
}
