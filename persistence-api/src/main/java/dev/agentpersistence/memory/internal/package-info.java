/** Internals of the conversation store (window positions and their stored form); not public API. */
package dev.agentpersistence.memory.internal;
