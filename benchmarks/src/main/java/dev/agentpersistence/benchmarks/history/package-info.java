/**
 * The storage growth benchmark: a long agent run whose history grows every step, saved with whole
 * histories and with {@link dev.agentpersistence.history.IncrementalHistoryStorageProvider}.
 */
package dev.agentpersistence.benchmarks.history;
