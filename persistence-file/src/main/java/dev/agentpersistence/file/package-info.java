/**
 * A crash-safe file system storage provider: one directory per agent, holding the agent's journal (one append and one
 * sync per save) or one file per checkpoint (atomic hard links), so that a save is durable once it returns and no two
 * writers, in any process, both win a version or a checkpoint id. Start with
 * {@link FileStorage#builder(FileStorageConfig)}.
 */
package dev.agentpersistence.file;
