/**
 * The storage growth benchmark: a long agent run whose history grows every step, saved with whole histories and with
 * incremental history ({@code StorageSettings.incrementalHistory}).
 */
package dev.agentpersistence.benchmarks.history;
