/** Internals of the storage shell; not an API. */
package dev.agentpersistence.storage.internal;
