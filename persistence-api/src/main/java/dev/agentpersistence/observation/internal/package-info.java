/** How the shell and the facade run a call inside an observation; not API. */
package dev.agentpersistence.observation.internal;
