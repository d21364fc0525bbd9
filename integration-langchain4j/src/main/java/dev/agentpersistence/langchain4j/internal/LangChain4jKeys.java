package dev.agentpersistence.langchain4j.internal;

/**
 * The {@link dev.agentpersistence.Message#metadata()} keys that carry what the portable message has no field for. Each
 * is written only when needed, so a plain message has none.
 */
public final class LangChain4jKeys {
    /** {@code CUSTOM} on a {@code CustomMessage}; other types follow from the role. */
    public static final String TYPE = "langchain4j.type";
    /** A {@code UserMessage}'s name. */
    public static final String NAME = "langchain4j.name";
    /** A message's attributes, typed JSON ({@link LangChain4jAttributes}). */
    public static final String ATTRIBUTES = "langchain4j.attributes";
    /** An {@code AiMessage}'s thinking. */
    public static final String THINKING = "langchain4j.thinking";
    /** {@code true} when an {@code AiMessage}'s text is {@code null} (the content is then empty). */
    public static final String TEXT_ABSENT = "langchain4j.textAbsent";
    /** On the first {@code TOOL_CALL} message of an {@code AiMessage}: how many tool calls it made. */
    public static final String TOOL_CALLS = "langchain4j.toolCalls";
    /** A tool call's arguments exactly as the model wrote them, when the JSON form would not reproduce them. */
    public static final String ARGUMENTS = "langchain4j.arguments";
    /** {@code true} when a tool call had no arguments, id or name ({@code null}). */
    public static final String ARGUMENTS_ABSENT = "langchain4j.argumentsAbsent";
    /** See {@link #ARGUMENTS_ABSENT}. */
    public static final String ID_ABSENT = "langchain4j.idAbsent";
    /** See {@link #ARGUMENTS_ABSENT}. */
    public static final String NAME_ABSENT = "langchain4j.toolNameAbsent";
    /** A tool result's {@code isError}, when set. */
    public static final String IS_ERROR = "langchain4j.isError";
    /** Per content part, what the part has no field for ({@link LangChain4jContents}). */
    public static final String PARTS = "langchain4j.parts";
    /** The {@link #TYPE} of a {@code CustomMessage}. */
    public static final String CUSTOM = "CUSTOM";

    private LangChain4jKeys() {}
}
