/** Internals of the ADK services: agent ids and the records stored as conversation messages. */
package dev.agentpersistence.adk.internal;
