package dev.agentpersistence.benchmarks.raw;

import java.net.URI;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;

/** One {@code PutObject} per write and one {@code GetObject} per read. */
public final class RawS3Store implements RawStore {
    private final S3Client client;
    private final String bucket;
    private final String prefix;

    public RawS3Store(S3Client client, String bucket, String prefix) {
        this.client = client;
        this.bucket = bucket;
        this.prefix = prefix;
    }

    /**
     * An SDK client (Apache HttpClient 5, path style, checksums only when required) as the S3 provider builds its own.
     */
    public static S3Client client(URI endpoint, String accessKey, String secretKey) {
        return S3Client.builder()
                .httpClientBuilder(Apache5HttpClient.builder())
                .endpointOverride(endpoint)
                .forcePathStyle(true)
                .region(Region.US_EAST_1)
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
                .build();
    }

    @Override
    public void write(String key, byte[] value) {
        client.putObject(b -> b.bucket(bucket).key(prefix + key), RequestBody.fromBytes(value));
    }

    @Override
    public byte[] read(String key) {
        return client.getObjectAsBytes(b -> b.bucket(bucket).key(prefix + key)).asByteArray();
    }

    @Override
    public void delete(List<String> keys) {
        for (int i = 0; i < keys.size(); i += 1000) {
            List<ObjectIdentifier> batch = keys.subList(i, Math.min(keys.size(), i + 1000)).stream()
                    .map(key -> ObjectIdentifier.builder().key(prefix + key).build())
                    .toList();
            client.deleteObjects(b -> b.bucket(bucket).delete(d -> d.objects(batch)));
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
