/** Implementation details shared by the modules of agent-persistence; not a public API. */
package dev.agentpersistence.internal;
