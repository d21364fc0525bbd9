/**
 * LangChain4j chat memory over any agent-persistence provider:
 * {@link dev.agentpersistence.langchain4j.AgentPersistenceChatMemoryStore} (a {@code ChatMemoryStore}),
 * {@link dev.agentpersistence.langchain4j.LangChain4jMessages} (the exact message mapping) and
 * {@link dev.agentpersistence.langchain4j.ToolExecutionRecorder} (AI Services' tool executions, for rollbacks).
 */
package dev.agentpersistence.langchain4j;
