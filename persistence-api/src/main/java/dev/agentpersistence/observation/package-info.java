/**
 * Instrumentation through Micrometer's Observation API: every storage operation of the storage shell and every
 * checkpoint creation and rollback of the facade is one observation, which gives meters (through
 * {@link dev.agentpersistence.observation.AgentMeterHandler}) and, where the application has
 * {@code micrometer-tracing}, spans.
 */
package dev.agentpersistence.observation;
