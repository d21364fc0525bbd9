/**
 * Leases with fencing tokens over any storage provider ({@link dev.agentpersistence.lease.Leases}): at most one live
 * owner per resource, decided by the provider's insert-if-absent.
 */
package dev.agentpersistence.lease;
