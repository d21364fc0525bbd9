/**
 * Incremental message histories and retention: {@link dev.agentpersistence.history.IncrementalHistoryStorageProvider}
 * stores a growing history once instead of once per checkpoint, on any provider with the
 * {@link dev.agentpersistence.backend.HistorySegmentStore} capability;
 * {@link dev.agentpersistence.history.RetentionSweeper} applies a {@link dev.agentpersistence.history.RetentionPolicy}
 * and collects segments no kept checkpoint needs.
 */
package dev.agentpersistence.history;
