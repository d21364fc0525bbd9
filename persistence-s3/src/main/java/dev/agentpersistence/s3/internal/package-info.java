/** Implementation of the S3 provider: key layout, save protocol, queries. Not a public API. */
package dev.agentpersistence.s3.internal;
