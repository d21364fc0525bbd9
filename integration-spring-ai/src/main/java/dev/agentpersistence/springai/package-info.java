/**
 * Spring AI chat memory in any agent-persistence store:
 * {@link dev.agentpersistence.springai.AgentPersistenceChatMemoryRepository}.
 */
package dev.agentpersistence.springai;
