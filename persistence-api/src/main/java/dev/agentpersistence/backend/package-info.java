/**
 * The backend SPI: what a storage technology implements to hold checkpoints as opaque stored
 * records, below the one storage shell ({@link dev.agentpersistence.storage.StorageShell}) that does
 * everything else (ids, the stored form, conflicts, history, retention, typed errors).
 */
package dev.agentpersistence.backend;
