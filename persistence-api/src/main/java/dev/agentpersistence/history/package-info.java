/**
 * Incremental message histories and retention: {@link dev.agentpersistence.history.IncrementalHistoryConfig} says how
 * the storage shell stores a growing history once instead of once per checkpoint, over any backend with a
 * {@link dev.agentpersistence.backend.HistorySegmentStore}; {@link dev.agentpersistence.history.RetentionSweeper}
 * applies a {@link dev.agentpersistence.history.RetentionPolicy} and collects segments no kept checkpoint needs.
 */
package dev.agentpersistence.history;
