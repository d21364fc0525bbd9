/** A storage provider that keeps checkpoints in the heap: for tests, demos and short-lived agents. */
package dev.agentpersistence.inmemory;
