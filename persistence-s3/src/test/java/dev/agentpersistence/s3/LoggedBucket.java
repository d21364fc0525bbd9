package dev.agentpersistence.s3;

import dev.agentpersistence.storage.StorageShell;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * For each test: a new bucket on the class's S3Proxy server and a client that logs every request into {@link #log()};
 * providers {@linkplain #open opened} over that client are closed with it after the test. Registered as an instance
 * field with {@code @RegisterExtension}, after the {@link S3ProxyExtension} it uses.
 */
final class LoggedBucket implements BeforeEachCallback, AfterEachCallback {
    private final S3ProxyExtension s3;
    private final RequestLog log = new RequestLog();
    private final List<StorageShell> opened = new ArrayList<>();
    private String bucket;
    private S3Client client;

    LoggedBucket(S3ProxyExtension s3) {
        this.s3 = s3;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        bucket = s3.server().newBucket();
        client = s3.server().loggingClient(log);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        opened.forEach(StorageShell::close);
        opened.clear();
        client.close();
    }

    /** The requests the client sent. */
    RequestLog log() {
        return log;
    }

    /** The test's bucket. */
    String bucket() {
        return bucket;
    }

    /** The logging client. */
    S3Client client() {
        return client;
    }

    /** A provider over the logging client, on the test's bucket under {@code prefix}. */
    StorageShell open(String prefix) {
        return open(s3.server().config(bucket).prefix(prefix).build());
    }

    /** A provider over the logging client with {@code config}. */
    StorageShell open(S3StorageConfig config) {
        StorageShell provider = S3Storage.builder(config, client).build();
        opened.add(provider);
        return provider;
    }
}
