/**
 * Relational storage for agent checkpoints: {@link StorageShell} on SQLite, PostgreSQL, MariaDB/MySQL or H2, configured
 * by {@link dev.agentpersistence.jdbc.JdbcStorageConfig} and discovered as {@code jdbc} through
 * {@link dev.agentpersistence.jdbc.JdbcStorageProviderFactory}.
 */
package dev.agentpersistence.jdbc;

import dev.agentpersistence.storage.StorageShell;
