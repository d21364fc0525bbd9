package dev.agentpersistence.langchain4j;

import dev.agentpersistence.PersistenceException;

/**
 * A LangChain4j message holds something this module cannot store so that it reads back equal: a message or content type
 * it does not know, or an attribute value of a type outside the supported ones (text, booleans, numbers, lists, maps,
 * images). Nothing was written.
 */
public class UnsupportedMessageException extends PersistenceException {
    public UnsupportedMessageException(String message) {
        super(message);
    }
}
