/**
 * Google Agent Development Kit (ADK) session, artifact and memory services over any agent-persistence
 * {@code PersistenceStorageProvider}.
 */
package dev.agentpersistence.adk;
