package dev.agentpersistence;

/** An agent or checkpoint id broke the rules of {@link Identifiers}. */
public class InvalidIdentifierException extends PersistenceException {
    public InvalidIdentifierException(String message) {
        super(message);
    }
}
