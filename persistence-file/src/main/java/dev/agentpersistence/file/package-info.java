/**
 * A crash-safe file system storage provider: one directory per agent, one file per checkpoint,
 * written with fsync and atomic hard links so that a save is durable once it returns and no two
 * writers, in any process, both win a version or a checkpoint id. Start with
 * {@link dev.agentpersistence.file.FileStorageProvider#of(FileStorageConfig)}.
 */
package dev.agentpersistence.file;
