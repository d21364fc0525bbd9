/** Implementation of the pipeline runtime. Not public API: may change in any release. */
package dev.agentpersistence.pipeline.internal;
