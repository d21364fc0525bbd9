package dev.agentpersistence.springai;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The metadata keys under which a stored {@link dev.agentpersistence.Message} keeps what Spring AI has and the common
 * model does not. All start with {@value #PREFIX}.
 */
final class StoredKeys {
    /** Prefix of every key this integration writes. */
    static final String PREFIX = "spring-ai.";
    /** The Spring AI message metadata (without {@code messageType}), as {@link MetadataValues} JSON. */
    static final String METADATA = PREFIX + "metadata";
    /** On an assistant message: how many {@code TOOL_CALL} messages after it are its tool calls. */
    static final String TOOL_CALLS = PREFIX + "tool-calls";
    /** On the first {@code TOOL_RESULT} of a tool response message: how many responses it has. */
    static final String RESPONSES = PREFIX + "responses";
    /** On a tool call: Spring AI's call type ({@code function}). */
    static final String TOOL_TYPE = PREFIX + "tool-type";
    /** On a tool call: the arguments text, when it is not the compact JSON of the stored arguments. */
    static final String ARGUMENTS = PREFIX + "arguments";
    /** The fields that were {@code null} in Spring AI and are stored as empty strings, comma-separated. */
    static final String NULLS = PREFIX + "nulls";

    private StoredKeys() {}

    /** The key of the Spring AI media id of the {@code index}th media of a message. */
    static String mediaId(int index) {
        return PREFIX + "media." + index + ".id";
    }

    /** The key marking the {@code index}th media of a message as given by {@code java.net.URL}. */
    static String mediaUrlType(int index) {
        return PREFIX + "media." + index + ".url-type";
    }

    /** The names listed under {@link #NULLS}. */
    static Set<String> nulls(Map<String, String> metadata) {
        String listed = metadata.get(NULLS);
        return listed == null ? Set.of() : Set.copyOf(Arrays.asList(listed.split(",")));
    }

    /** The value of {@link #NULLS} for {@code names}, or {@code null} when there are none. */
    static String nullsValue(List<String> names) {
        return names.isEmpty() ? null : names.stream().collect(Collectors.joining(","));
    }
}
