package dev.agentpersistence.langgraph4j;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Message;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The state key whose list is stored as the checkpoint's message history instead of inside its state, so a history that
 * grows by appending is stored once (incremental history) rather than whole in every checkpoint.
 *
 * <p>An element that is exactly {@code {"role": "user"|"assistant"|"system", "content": <text>}} becomes a message of
 * that role and text; any other element is kept as its JSON text in an assistant message marked with metadata
 * {@value #JSON}. Message ids are derived from the element's place and JSON, so the same list gives the same ids in
 * every checkpoint. Reading puts the list back under the key, equal to what was saved.
 */
final class MessageChannel {
    /** Message metadata: the content is the element's JSON text. */
    static final String JSON = "langgraph4j.json";

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Set<String> ROLES = Set.of("user", "assistant", "system");

    private MessageChannel() {}

    /** The messages holding the elements of {@code list}. */
    static List<Message> toMessages(ArrayNode list) {
        var messages = new ArrayList<Message>(list.size());
        for (int i = 0; i < list.size(); i++) {
            JsonNode element = list.get(i);
            String id = id(i, element);
            if (isPlainTurn(element)) {
                var role = Message.Role.valueOf(element.get("role").textValue().toUpperCase(Locale.ROOT));
                messages.add(new Message(id, role, element.get("content").textValue(), List.of(), null, Map.of()));
            } else {
                messages.add(new Message(
                        id, Message.Role.ASSISTANT, element.toString(), List.of(), null, Map.of(JSON, "true")));
            }
        }
        return messages;
    }

    /** The list the messages hold, as saved. */
    static ArrayNode toList(String agentId, String checkpointId, List<Message> messages) {
        ArrayNode list = JsonNodeFactory.instance.arrayNode(messages.size());
        for (Message message : messages) {
            if (message.metadata().containsKey(JSON)) {
                try {
                    list.add(MAPPER.readTree(message.content()));
                } catch (JsonProcessingException e) {
                    throw new CorruptCheckpointException(
                            agentId,
                            checkpointId,
                            "message " + message.id(),
                            "a LangGraph4j state element is not valid JSON",
                            null);
                }
            } else {
                ObjectNode turn = list.addObject();
                turn.put("role", message.role().name().toLowerCase(Locale.ROOT));
                turn.put("content", message.content());
            }
        }
        return list;
    }

    private static boolean isPlainTurn(JsonNode element) {
        return element.isObject()
                && element.size() == 2
                && element.path("role").isTextual()
                && ROLES.contains(element.get("role").textValue())
                && element.path("content").isTextual();
    }

    private static String id(int index, JsonNode element) {
        try {
            var sha256 = MessageDigest.getInstance("SHA-256");
            sha256.update((index + ":" + element).getBytes(StandardCharsets.UTF_8));
            return "lg-" + index + "-" + HexFormat.of().formatHex(sha256.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
