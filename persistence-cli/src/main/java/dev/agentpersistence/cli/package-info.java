/**
 * The {@code agent-persistence} command line ({@link dev.agentpersistence.cli.PersistenceCli}): inspects, checks,
 * trims, exports, imports and copies the checkpoints of any store named by a URI, and serves a read-only web inspector.
 * Exit codes are {@link dev.agentpersistence.cli.ExitCode}.
 */
package dev.agentpersistence.cli;
