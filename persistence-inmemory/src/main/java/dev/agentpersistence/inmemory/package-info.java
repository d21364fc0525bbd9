/**
 * A storage provider that keeps checkpoints in the heap: for tests, demos and short-lived agents. {@link StorageShell}
 * is the storage shell over the module's heap backend (per agent a skip list by version and an id index, plus a segment
 * area); it stores and reads the encoded form like every provider. Its defaults are
 * {@code StorageSettings.ofDefaults()} with incremental history off, in code and through discovery ({@code inmemory}).
 */
package dev.agentpersistence.inmemory;

import dev.agentpersistence.storage.StorageShell;
