/**
 * Pipeline runtime: {@link dev.agentpersistence.pipeline.Pipeline}s of named
 * {@link dev.agentpersistence.pipeline.Node}s guarded by pre- and postconditions, with a backup before every attempt,
 * rollback (state and tool calls) and retry with {@link dev.agentpersistence.pipeline.RetryFeedback} on failure, a
 * checkpoint after every node and resume from the latest checkpoint.
 */
package dev.agentpersistence.pipeline;
