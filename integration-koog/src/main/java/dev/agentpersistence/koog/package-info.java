/** A Koog persistence storage provider over any agent-persistence {@code PersistenceStorageProvider}. */
package dev.agentpersistence.koog;
