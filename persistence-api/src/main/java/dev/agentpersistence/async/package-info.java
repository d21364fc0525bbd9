/**
 * {@link java.util.concurrent.CompletableFuture} views of any storage provider
 * ({@link dev.agentpersistence.async.AsyncStorageProvider}) and of the facade
 * ({@link dev.agentpersistence.async.AsyncAgentPersistence}), running the blocking calls on a bounded
 * {@link dev.agentpersistence.async.AsyncExecutor} (virtual threads when the JVM has them).
 */
package dev.agentpersistence.async;
