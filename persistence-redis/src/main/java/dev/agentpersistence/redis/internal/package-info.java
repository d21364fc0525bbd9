/**
 * Implementation of the Redis provider: key layout, Lua scripts, client set-up and error translation. Not a public API.
 */
package dev.agentpersistence.redis.internal;
