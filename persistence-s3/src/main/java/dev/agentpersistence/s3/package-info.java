/**
 * Stores agent checkpoints in an S3 bucket (AWS S3 or an S3-compatible store such as MinIO). Start with
 * {@link S3Storage#builder(S3StorageConfig)} or select the provider named {@code s3} through
 * {@link dev.agentpersistence.spi.PersistenceStorageProviders}.
 */
package dev.agentpersistence.s3;
