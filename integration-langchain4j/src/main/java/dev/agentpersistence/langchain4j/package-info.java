/**
 * LangChain4j chat memory over any agent-persistence provider:
 * {@link dev.agentpersistence.langchain4j.AgentPersistenceChatMemoryStore} (a {@code ChatMemoryStore})
 * and {@link dev.agentpersistence.langchain4j.LangChain4jMessages} (the exact message mapping).
 */
package dev.agentpersistence.langchain4j;
