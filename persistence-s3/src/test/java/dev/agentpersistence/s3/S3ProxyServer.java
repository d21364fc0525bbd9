package dev.agentpersistence.s3;

import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * S3Proxy serving the real S3 protocol (AWS signature V4 checked) on a random loopback port, over an in-memory store
 * that applies {@code If-Match} atomically ({@link AtomicIfMatchBlobStore}). One per test class; {@link #newBucket()}
 * gives each test its own bucket.
 */
final class S3ProxyServer implements AutoCloseable {
    static final String ACCESS_KEY = "test-access-key";
    static final String SECRET_KEY = "test-secret-key";

    private final S3Proxy proxy;
    private final URI endpoint;
    private final S3Client admin;
    private final AtomicInteger buckets = new AtomicInteger();

    private final TransientNio2BlobStore store;

    private S3ProxyServer(S3Proxy proxy, URI endpoint, TransientNio2BlobStore store) {
        this.proxy = proxy;
        this.store = store;
        this.endpoint = endpoint;
        this.admin = client(ACCESS_KEY, SECRET_KEY);
    }

    static S3ProxyServer start() throws Exception {
        return start(new TransientNio2BlobStore(), 0);
    }

    /** A server over {@code store} (to restart one with its data) on {@code port} (0: any free port). */
    static S3ProxyServer start(TransientNio2BlobStore store, int port) throws Exception {
        S3Proxy proxy = S3Proxy.builder()
                .blobStore(new AtomicIfMatchBlobStore(store))
                .endpoint(URI.create("http://127.0.0.1:" + port))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                .build();
        proxy.start();
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                proxy.stop();
                throw new IllegalStateException("S3Proxy did not start: " + proxy.getState());
            }
            Thread.sleep(10);
        }
        return new S3ProxyServer(proxy, URI.create("http://127.0.0.1:" + proxy.getPort()), store);
    }

    TransientNio2BlobStore store() {
        return store;
    }

    int port() {
        return proxy.getPort();
    }

    URI endpoint() {
        return endpoint;
    }

    /** Creates an empty bucket and returns its name. */
    String newBucket() {
        String name = "bucket-" + buckets.incrementAndGet();
        admin.createBucket(b -> b.bucket(name));
        return name;
    }

    /** Settings for a provider over {@code bucket} of this server. */
    S3StorageConfig.Builder config(String bucket) {
        return S3StorageConfig.custom().bucket(bucket).endpoint(endpoint).credentials(ACCESS_KEY, SECRET_KEY);
    }

    /** Every object of {@code bucket}: its key, its user metadata and its bytes. */
    byte[] dump(String bucket) {
        var out = new java.io.ByteArrayOutputStream();
        for (var object : admin.listObjectsV2Paginator(b -> b.bucket(bucket)).contents()) {
            var body = admin.getObjectAsBytes(b -> b.bucket(bucket).key(object.key()));
            out.writeBytes(object.key().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            out.writeBytes(body.response().metadata().toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            out.writeBytes(body.asByteArray());
        }
        return out.toByteArray();
    }

    /** A raw client for inspecting or tampering with objects. */
    S3Client admin() {
        return admin;
    }

    /** A client that reports every call to {@code log}. */
    S3Client loggingClient(RequestLog log) {
        return interceptedClient(log);
    }

    /** A client that passes every call through {@code interceptor} (to log, delay or fail it). */
    S3Client interceptedClient(software.amazon.awssdk.core.interceptor.ExecutionInterceptor interceptor) {
        return builder(ACCESS_KEY, SECRET_KEY)
                .overrideConfiguration(o -> o.addExecutionInterceptor(interceptor))
                .build();
    }

    S3Client client(String accessKey, String secretKey) {
        return builder(accessKey, secretKey).build();
    }

    private software.amazon.awssdk.services.s3.S3ClientBuilder builder(String accessKey, String secretKey) {
        return S3Client.builder()
                .httpClientBuilder(Apache5HttpClient.builder())
                .endpointOverride(endpoint)
                .forcePathStyle(true)
                .region(Region.US_EAST_1)
                .credentialsProvider(
                        StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)));
    }

    @Override
    public void close() {
        admin.close();
        try {
            proxy.stop();
        } catch (Exception e) {
            throw new IllegalStateException("S3Proxy did not stop", e);
        }
    }
}
