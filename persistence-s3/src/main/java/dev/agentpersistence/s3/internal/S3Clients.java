package dev.agentpersistence.s3.internal;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.s3.S3StorageConfig;
import dev.agentpersistence.spi.Redactor;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/** Builds the {@link S3Client} a provider owns from an {@link S3StorageConfig}. */
public final class S3Clients {
    /** The region used with an endpoint when none is set (S3-compatible stores mostly ignore it). */
    public static final String DEFAULT_ENDPOINT_REGION = "us-east-1";

    private S3Clients() {
    }

    /**
     * A client for {@code config}, using Apache HttpClient 5 for HTTP.
     *
     * @param regionKey the setting to name when no region can be found
     */
    public static S3Client create(S3StorageConfig config, String regionKey) {
        var builder = S3Client.builder()
                .httpClientBuilder(Apache5HttpClient.builder()
                        .connectionTimeout(config.connectTimeout())
                        .socketTimeout(config.readTimeout()))
                .forcePathStyle(config.pathStyle())
                .credentialsProvider(credentials(config));
        config.endpoint().ifPresent(endpoint -> builder.endpointOverride(endpoint)
                // S3-compatible stores differ in which flexible checksums they accept; send them only when required.
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED));
        if (config.region().isPresent()) {
            builder.region(Region.of(config.region().get()));
        } else if (config.endpoint().isPresent()) {
            builder.region(Region.of(DEFAULT_ENDPOINT_REGION));
        }
        try {
            return builder.build();
        } catch (SdkClientException e) {
            Redactor redactor = redactor(config);
            throw new PersistenceException("Cannot set up the S3 client for " + config.location() + ": "
                    + redactor.redact(e.getMessage()) + " Set the region with " + regionKey + " (or AWS_REGION).",
                    redactor.redact(e));
        }
    }

    /** Hides the endpoint's credential parameters and the secret access key in messages and causes. */
    public static Redactor redactor(S3StorageConfig config) {
        return Redactor.forCredentialsIn(config.endpoint().map(Object::toString).orElse(null))
                .andSecret(config.secretAccessKey().orElse(null));
    }

    /** Where requests go, for messages; credential parameters hidden. */
    public static String describeEndpoint(S3StorageConfig config) {
        return config.endpoint().map(S3StorageConfig.ENDPOINT::show)
                .orElseGet(() -> "AWS S3" + config.region().map(r -> " in " + r).orElse(""));
    }

    private static AwsCredentialsProvider credentials(S3StorageConfig config) {
        if (config.accessKeyId().isPresent() && config.secretAccessKey().isPresent()) {
            return StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(config.accessKeyId().get(), config.secretAccessKey().get()));
        }
        return DefaultCredentialsProvider.builder().build();
    }
}
