package dev.agentpersistence.langgraph4j;

/**
 * A graph state value that cannot be stored, named by its key and its path inside the value
 * ({@code messages[2].author}): not JSON-mappable ({@link StateValues}), and the saver has no state serializer or its
 * state serializer could not write it either. Nothing was written; a retry does not help.
 */
public class UnsupportedStateValueException extends IllegalArgumentException {
    private final String key;
    private final String path;
    private final String valueType;

    public UnsupportedStateValueException(String key, String path, String valueType, String reason) {
        this(
                key,
                path,
                valueType,
                "State value '" + path + "' (" + valueType + ") cannot be stored: " + reason + ". Supported: null, "
                        + "String, Boolean, Integer, Long, Short, Byte, BigInteger, finite Double/Float, BigDecimal, "
                        + "and Lists and Maps with String keys of these; convert other objects before putting them "
                        + "in the state",
                (Throwable) null);
    }

    private UnsupportedStateValueException(String key, String path, String valueType, String message, Throwable cause) {
        super(message, cause);
        this.key = key;
        this.path = path;
        this.valueType = valueType;
    }

    /**
     * The value under {@code key} is not JSON-mappable ({@code notJson} says where), and {@code serializer} failed to
     * write it with {@code cause}.
     */
    static UnsupportedStateValueException notSerializable(
            UnsupportedStateValueException notJson, String serializer, Throwable cause) {
        return new UnsupportedStateValueException(
                notJson.key,
                notJson.path,
                notJson.valueType,
                "State value '" + notJson.key + "' cannot be stored: '" + notJson.path + "' (" + notJson.valueType
                        + ") is not JSON-mappable, and the state serializer " + serializer + " could not write the"
                        + " value either (" + cause + "); make the value Serializable, or register a serializer for"
                        + " its type with the graph's state serializer and give that serializer to the saver",
                cause);
    }

    /** The top-level state key. */
    public String key() {
        return key;
    }

    /** Where inside the state the value sits, starting with the key. */
    public String path() {
        return path;
    }

    /** The class name of the unsupported value. */
    public String valueType() {
        return valueType;
    }
}
