package dev.agentpersistence.jdbc.internal;

/**
 * One checkpoint row as read: its key and the codec document.
 *
 * @param agentId      the {@code agent_id} column
 * @param checkpointId the {@code checkpoint_id} column
 * @param document     the {@code payload} column
 */
public record StoredRow(String agentId, String checkpointId, byte[] document) {
}
