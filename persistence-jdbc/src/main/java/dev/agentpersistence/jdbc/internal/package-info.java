/** Internals of the JDBC provider: dialects, schema migrations, SQL and failure translation. Not public API. */
package dev.agentpersistence.jdbc.internal;
