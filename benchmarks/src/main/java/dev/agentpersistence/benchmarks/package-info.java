/** JMH benchmarks of the providers, their raw drivers and peer frameworks; see the module README. */
package dev.agentpersistence.benchmarks;
