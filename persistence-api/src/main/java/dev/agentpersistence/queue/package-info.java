/**
 * Work queues kept natively by a store ({@link dev.agentpersistence.queue.QueueStore}): one record per item, each
 * written by compare-and-set on its own version, so writers of different items never wait for each other.
 */
package dev.agentpersistence.queue;
