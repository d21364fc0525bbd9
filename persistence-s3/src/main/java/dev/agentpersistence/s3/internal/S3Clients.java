package dev.agentpersistence.s3.internal;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.StorageConfigurationException;
import dev.agentpersistence.redaction.Redactor;
import dev.agentpersistence.s3.S3StorageConfig;
import dev.agentpersistence.spi.ProviderConfig;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.s3.S3Client;

/** Builds the {@link S3Client} a provider owns from an {@link S3StorageConfig}. */
public final class S3Clients {
    /** The region used with an endpoint when none is set (S3-compatible stores mostly ignore it). */
    public static final String DEFAULT_ENDPOINT_REGION = "us-east-1";

    private S3Clients() {}

    /**
     * A client for {@code config}, using Apache HttpClient 5 for HTTP.
     *
     * @param regionKey the setting to name when no region can be found
     * @throws StorageConfigurationException when no region is configured or found by the AWS SDK
     */
    public static S3Client create(S3StorageConfig config, String regionKey) {
        var builder = S3Client.builder()
                .httpClientBuilder(Apache5HttpClient.builder()
                        .connectionTimeout(config.connectTimeout())
                        .socketTimeout(config.readTimeout()))
                .forcePathStyle(config.pathStyle())
                .credentialsProvider(credentials(config));
        config.endpoint()
                .ifPresent(endpoint -> builder.endpointOverride(endpoint)
                        // S3-compatible stores differ in which flexible checksums they accept; send them only when
                        // required.
                        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED));
        builder.region(region(config, regionKey));
        try {
            return builder.build();
        } catch (SdkClientException e) {
            Redactor redactor = redactor(config);
            throw new PersistenceException(
                    "Cannot set up the S3 client for " + config.location() + ": " + redactor.redact(e.getMessage()),
                    redactor.redact(e));
        }
    }

    /**
     * The configured region; with an endpoint and none configured {@value #DEFAULT_ENDPOINT_REGION}; else the AWS SDK's
     * default (system property {@code aws.region}, {@code AWS_REGION}, the AWS config file, instance metadata).
     *
     * @throws StorageConfigurationException naming {@code regionKey} when none is found
     */
    private static Region region(S3StorageConfig config, String regionKey) {
        if (config.region().isPresent()) {
            return Region.of(config.region().get());
        }
        if (config.endpoint().isPresent()) {
            return Region.of(DEFAULT_ENDPOINT_REGION);
        }
        try {
            return DefaultAwsRegionProviderChain.builder().build().getRegion();
        } catch (SdkClientException e) {
            // the SDK's text lists every provider of its chain; it stays available as the cause
            throw new StorageConfigurationException(
                    "No AWS region for " + config.location() + ": set "
                            + regionKey + " (environment " + ProviderConfig.environmentName(regionKey)
                            + ") or AWS_REGION, or give an endpoint for an S3-compatible store",
                    e);
        }
    }

    /** Hides the endpoint's credential parameters and the secret access key in messages and causes. */
    public static Redactor redactor(S3StorageConfig config) {
        return Redactor.forCredentialsIn(config.endpoint().map(Object::toString).orElse(null))
                .andSecret(config.secretAccessKey().orElse(null));
    }

    /** Where requests go, for messages; credential parameters hidden. */
    public static String describeEndpoint(S3StorageConfig config) {
        return config.endpoint()
                .map(S3StorageConfig.ENDPOINT::show)
                .orElseGet(() -> "AWS S3" + config.region().map(r -> " in " + r).orElse(""));
    }

    private static AwsCredentialsProvider credentials(S3StorageConfig config) {
        if (config.accessKeyId().isPresent() && config.secretAccessKey().isPresent()) {
            return StaticCredentialsProvider.create(AwsBasicCredentials.create(
                    config.accessKeyId().get(), config.secretAccessKey().get()));
        }
        return DefaultCredentialsProvider.builder().build();
    }
}
