/**
 * LangGraph4j checkpoints in any agent-persistence store:
 * {@link dev.agentpersistence.langgraph4j.AgentPersistenceSaver}.
 */
package dev.agentpersistence.langgraph4j;
