package dev.agentpersistence.langgraph4j;

/**
 * A graph state value that {@link StateValues} cannot store as JSON, named by its key and its path inside the value
 * ({@code messages[2].author}). Nothing was written.
 */
public class UnsupportedStateValueException extends IllegalArgumentException {
    private final String key;
    private final String path;
    private final String valueType;

    public UnsupportedStateValueException(String key, String path, String valueType, String reason) {
        super("State value '" + path + "' (" + valueType + ") cannot be stored: " + reason + ". Supported: null, "
                + "String, Boolean, Integer, Long, Short, Byte, BigInteger, finite Double/Float, BigDecimal, "
                + "and Lists and Maps with String keys of these; convert other objects before putting them "
                + "in the state");
        this.key = key;
        this.path = path;
        this.valueType = valueType;
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
