/** Internals of the incremental history layer; not public API, may change without notice. */
package dev.agentpersistence.history.internal;
