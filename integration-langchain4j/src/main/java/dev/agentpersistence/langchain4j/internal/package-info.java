/** Internals of the LangChain4j adapter (metadata keys, attribute and media encodings); not public API. */
package dev.agentpersistence.langchain4j.internal;
