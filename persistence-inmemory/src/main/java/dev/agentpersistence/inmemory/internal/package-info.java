/** Internals of the in-memory provider; not public API. */
package dev.agentpersistence.inmemory.internal;
