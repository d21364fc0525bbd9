/**
 * The backend SPI: what a storage technology implements to hold checkpoints as opaque stored records, below the one
 * storage shell ({@link dev.agentpersistence.storage.StorageShell}) that does everything else (ids, the stored form,
 * conflicts, history, retention, typed errors). {@link dev.agentpersistence.backend.AgentRecordsBackend} implements it
 * for stores that keep each agent's records as one value replaced atomically.
 */
package dev.agentpersistence.backend;
