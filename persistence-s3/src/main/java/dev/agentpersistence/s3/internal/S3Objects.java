package dev.agentpersistence.s3.internal;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.StorageNotFoundException;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.MetadataDirective;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The handful of S3 calls the provider makes, with SDK exceptions translated by {@link S3Failures}.
 * {@link #putIfAbsent} uses {@code If-None-Match: *} when the store supports it, else a read before and after the
 * write.
 */
public final class S3Objects {
    /** Most keys one ListObjectsV2 or DeleteObjects call handles. */
    public static final int PAGE = 1000;

    private static final int CONFLICT_RETRIES = 5;

    private final S3Client client;
    private final String bucket;
    private final String endpoint;
    private final boolean conditionalWrites;
    private final long maxObjectSize;

    /**
     * @param maxObjectSize the largest object {@link #get} reads; a larger one is an {@link ObjectTooLargeException},
     *     found from its length before reading it
     */
    public S3Objects(S3Client client, String bucket, String endpoint, boolean conditionalWrites, long maxObjectSize) {
        this.maxObjectSize = maxObjectSize;
        this.client = Objects.requireNonNull(client, "client");
        this.bucket = Objects.requireNonNull(bucket, "bucket");
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.conditionalWrites = conditionalWrites;
    }

    /** {@code s3://bucket/key}. */
    public String location(String key) {
        return "s3://" + bucket + "/" + key;
    }

    /** The object at {@code key}, or empty when there is none. */
    public Optional<StoredObject> get(String key) {
        return call("reading", key, () -> {
            try {
                return Optional.of(client.getObject(
                        GetObjectRequest.builder().bucket(bucket).key(key).build(),
                        (GetObjectResponse meta, AbortableInputStream in) -> {
                            if (meta.contentLength() != null && meta.contentLength() > maxObjectSize) {
                                in.abort();
                                throw new ObjectTooLargeException(location(key), meta.contentLength(), maxObjectSize);
                            }
                            byte[] bytes = readAtMost(in, meta.contentLength(), key);
                            Instant readAt = meta.sdkHttpResponse()
                                    .firstMatchingHeader("Date")
                                    .map(S3Objects::httpDate)
                                    .orElse(null);
                            return new StoredObject(
                                    key, bytes, meta.metadata(), meta.eTag(), meta.lastModified(), readAt);
                        }));
            } catch (NoSuchKeyException e) {
                return Optional.empty();
            } catch (SdkException e) {
                for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                    if (cause instanceof ObjectTooLargeException tooLarge) {
                        throw tooLarge; // the SDK wraps what the response reader throws
                    }
                }
                throw e;
            }
        });
    }

    /** The whole stream, refused as soon as it exceeds the maximum (whatever the length header said). */
    private byte[] readAtMost(AbortableInputStream in, Long declared, String key) throws java.io.IOException {
        var out = new java.io.ByteArrayOutputStream(declared == null ? 8192 : (int) Math.min(declared, maxObjectSize));
        byte[] buffer = new byte[8192];
        long total = 0;
        for (int n; (n = in.read(buffer)) != -1; ) {
            total += n;
            if (total > maxObjectSize) {
                in.abort();
                throw new ObjectTooLargeException(location(key), total, maxObjectSize);
            }
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    /** One {@code HeadBucket}: the bucket exists and answers. */
    public void checkBucket() {
        call("checking", "", () -> client.headBucket(b -> b.bucket(bucket)));
    }

    /**
     * One {@code HeadBucket} for a reader that creates nothing.
     *
     * @throws StorageNotFoundException when the bucket does not exist
     */
    public void requireBucket() {
        try {
            client.headBucket(b -> b.bucket(bucket));
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                throw new StorageNotFoundException("S3 bucket " + location("") + " does not exist; a read-only provider"
                        + " creates none (check agent.persistence.s3.bucket)");
            }
            checkBucket();
        } catch (SdkException e) {
            checkBucket();
        }
    }

    /** The largest object {@link #get} reads. */
    public long maxObjectSize() {
        return maxObjectSize;
    }

    /** Writes {@code key} unconditionally. */
    public void put(String key, byte[] bytes, Map<String, String> metadata) {
        call("writing", key, () -> client.putObject(request(key, metadata).build(), RequestBody.fromBytes(bytes)));
    }

    /**
     * Writes {@code key} only if no object exists there.
     *
     * @return whether this call created the object
     */
    public boolean putIfAbsent(String key, byte[] bytes, Map<String, String> metadata) {
        return conditionalWrites ? putIfNoneMatch(key, bytes, metadata) : putCheckedTwice(key, bytes, metadata);
    }

    /**
     * Overwrites {@code key} only if it still holds the version whose entity tag is {@code eTag}.
     *
     * @return whether this call replaced that version
     */
    public boolean replaceIfUnchanged(String key, String eTag, byte[] bytes, Map<String, String> metadata) {
        if (conditionalWrites) {
            return putConditionally(
                    key, bytes, request(key, metadata).ifMatch(eTag).build());
        }
        Optional<HeadObjectResponse> before = head(key);
        if (before.isEmpty() || !Objects.equals(before.get().eTag(), eTag)) {
            return false;
        }
        return putAndCheck(key, bytes, metadata);
    }

    private boolean putIfNoneMatch(String key, byte[] bytes, Map<String, String> metadata) {
        return putConditionally(
                key, bytes, request(key, metadata).ifNoneMatch("*").build());
    }

    private boolean putConditionally(String key, byte[] bytes, PutObjectRequest conditional) {
        for (int attempt = 1; ; attempt++) {
            try {
                client.putObject(conditional, RequestBody.fromBytes(bytes));
                return true;
            } catch (S3Exception e) {
                // 412: the condition failed; 404 (If-Match): there is no longer an object to replace.
                if (e.statusCode() == 412 || e.statusCode() == 404) {
                    return false;
                }
                // 409 ConditionalRequestConflict: another conditional write to the key is in flight; retry.
                if (e.statusCode() != 409 || attempt >= CONFLICT_RETRIES) {
                    throw S3Failures.translate(e, "writing", location(key), endpoint);
                }
                pause(attempt);
            } catch (SdkException e) {
                throw S3Failures.translate(e, "writing", location(key), endpoint);
            }
        }
    }

    /** For stores without conditional writes: look, write, then check the write is still the one stored. */
    private boolean putCheckedTwice(String key, byte[] bytes, Map<String, String> metadata) {
        if (head(key).isPresent()) {
            return false;
        }
        return putAndCheck(key, bytes, metadata);
    }

    private boolean putAndCheck(String key, byte[] bytes, Map<String, String> metadata) {
        String written = call(
                "writing",
                key,
                () -> client.putObject(request(key, metadata).build(), RequestBody.fromBytes(bytes))
                        .eTag());
        Optional<HeadObjectResponse> after = head(key);
        return after.isPresent() && Objects.equals(after.get().eTag(), written);
    }

    private Optional<HeadObjectResponse> head(String key) {
        return call("reading", key, () -> {
            try {
                return Optional.of(client.headObject(
                        HeadObjectRequest.builder().bucket(bucket).key(key).build()));
            } catch (NoSuchKeyException e) {
                return Optional.empty();
            }
        });
    }

    /**
     * Rewrites the object at {@code key} onto itself (a server-side copy that keeps its content and metadata), which
     * sets its last-modified time to now.
     *
     * @return {@code false} when there is no object at {@code key}
     */
    public boolean touch(String key) {
        return call("touching", key, () -> {
            try {
                var metadata = client.headObject(HeadObjectRequest.builder()
                                .bucket(bucket)
                                .key(key)
                                .build())
                        .metadata();
                client.copyObject(CopyObjectRequest.builder()
                        .sourceBucket(bucket)
                        .sourceKey(key)
                        .destinationBucket(bucket)
                        .destinationKey(key)
                        .metadataDirective(MetadataDirective.REPLACE)
                        .metadata(metadata)
                        .contentType("application/octet-stream")
                        .build());
                return true;
            } catch (NoSuchKeyException e) {
                return false;
            } catch (S3Exception e) {
                if (e.statusCode() == 404) {
                    return false;
                }
                throw e;
            }
        });
    }

    /** Every object under {@code prefix} with its size and last-modified time, ascending by key. */
    public List<S3Object> list(String prefix) {
        var objects = new ArrayList<S3Object>();
        String token = null;
        do {
            String continuation = token;
            ListObjectsV2Response page = call(
                    "listing",
                    prefix,
                    () -> client.listObjectsV2(ListObjectsV2Request.builder()
                            .bucket(bucket)
                            .prefix(prefix)
                            .continuationToken(continuation)
                            .maxKeys(PAGE)
                            .build()));
            objects.addAll(page.contents());
            token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
        } while (token != null);
        return objects;
    }

    /** Deletes {@code keys}, up to {@value #PAGE} per request; absent keys are ignored. */
    public void delete(Collection<String> keys) {
        var batch = new ArrayList<ObjectIdentifier>(Math.min(keys.size(), PAGE));
        for (String key : keys) {
            batch.add(ObjectIdentifier.builder().key(key).build());
            if (batch.size() == PAGE) {
                deleteBatch(batch);
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            deleteBatch(batch);
        }
    }

    private void deleteBatch(List<ObjectIdentifier> batch) {
        String first = batch.get(0).key();
        DeleteObjectsResponse response = call(
                "deleting",
                first,
                () -> client.deleteObjects(b -> b.bucket(bucket)
                        .delete(Delete.builder().objects(batch).quiet(true).build())));
        if (response.hasErrors() && !response.errors().isEmpty()) {
            var error = response.errors().get(0);
            throw new PersistenceException("S3 could not delete "
                    + response.errors().size() + " of " + batch.size()
                    + " objects, for example " + location(error.key()) + ": " + error.code() + " " + error.message()
                    + " (endpoint " + endpoint + ")");
        }
    }

    /**
     * The keys under {@code prefix} after {@code startAfter} (null: from the start) in ascending order, fetched lazily
     * page by page; {@code pageHint} caps the first page for callers that need only a few.
     */
    public Iterator<String> keys(String prefix, String startAfter, int pageHint) {
        return new KeyIterator(prefix, startAfter, Math.max(1, Math.min(PAGE, pageHint)));
    }

    /** Every folder directly under {@code prefix} (keys up to the next {@code /}), ascending. */
    public List<String> folders(String prefix) {
        var folders = new ArrayList<String>();
        String token = null;
        do {
            String continuation = token;
            ListObjectsV2Response page = call(
                    "listing",
                    prefix,
                    () -> client.listObjectsV2(ListObjectsV2Request.builder()
                            .bucket(bucket)
                            .prefix(prefix)
                            .delimiter("/")
                            .continuationToken(continuation)
                            .maxKeys(PAGE)
                            .build()));
            for (CommonPrefix folder : page.commonPrefixes()) {
                folders.add(folder.prefix());
            }
            token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
        } while (token != null);
        return folders;
    }

    private PutObjectRequest.Builder request(String key, Map<String, String> metadata) {
        return PutObjectRequest.builder()
                .bucket(bucket)
                .key(key)
                .metadata(metadata)
                .contentType("application/octet-stream");
    }

    private static Instant httpDate(String value) {
        try {
            return ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME)
                    .toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private <T> T call(String action, String key, Supplier<T> request) {
        try {
            return request.get();
        } catch (SdkException e) {
            throw S3Failures.translate(e, action, location(key), endpoint);
        }
    }

    private static void pause(int attempt) {
        try {
            Thread.sleep(10L * attempt);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PersistenceException("Interrupted while retrying a conditional S3 write", e);
        }
    }

    private final class KeyIterator implements Iterator<String> {
        private final String prefix;
        private final String startAfter;
        private int pageSize;
        private Iterator<S3Object> page = java.util.Collections.emptyIterator();
        private String token;
        private boolean started;
        private boolean exhausted;

        KeyIterator(String prefix, String startAfter, int pageSize) {
            this.prefix = prefix;
            this.startAfter = startAfter;
            this.pageSize = pageSize;
        }

        @Override
        public boolean hasNext() {
            while (!page.hasNext() && !exhausted) {
                fetch();
            }
            return page.hasNext();
        }

        @Override
        public String next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return page.next().key();
        }

        private void fetch() {
            var builder =
                    ListObjectsV2Request.builder().bucket(bucket).prefix(prefix).maxKeys(pageSize);
            if (started) {
                builder.continuationToken(token);
            } else if (startAfter != null) {
                builder.startAfter(startAfter);
            }
            ListObjectsV2Response response = call("listing", prefix, () -> client.listObjectsV2(builder.build()));
            started = true;
            page = response.contents().iterator();
            token = response.nextContinuationToken();
            exhausted = !Boolean.TRUE.equals(response.isTruncated()) || token == null;
            pageSize = PAGE;
        }
    }
}
