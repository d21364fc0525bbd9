/** Implementation of the file provider: layout, encoding, durable writes, queries. Not a public API. */
package dev.agentpersistence.file.internal;
