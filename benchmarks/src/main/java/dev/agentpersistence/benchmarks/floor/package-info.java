/**
 * The storage floor benchmark: the bytes each store holds after the peer workload and a 200-turn chat, against the
 * final conversation compressed once plus 200 bytes per checkpoint, with save and latest times and the backend calls of
 * a cold read.
 */
package dev.agentpersistence.benchmarks.floor;
