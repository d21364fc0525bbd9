package dev.agentpersistence.s3;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Immutable settings of an {@link S3StorageProvider}. Build one with {@link #custom()} or take
 * {@link #ofDefaults(String)}; every builder method validates its argument.
 *
 * <p>Only {@link #bucket()} is required. Without {@link #endpoint()} the client talks to AWS S3 in
 * {@link #region()} (or the region of the SDK's default chain); with one it talks to an
 * S3-compatible store. Without explicit keys the SDK's default credentials chain is used.
 * Settings about the connection (endpoint, region, path style, credentials, timeouts) are ignored
 * when the provider is given an {@code S3Client} of the caller's.
 */
public final class S3StorageConfig {
    /** Default connect timeout. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** Default timeout for reading a response. */
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(60);

    private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.\\-_]{1,254}");
    private static final int MAX_PREFIX_BYTES = 256;

    private final String bucket;
    private final String prefix;
    private final String region;
    private final URI endpoint;
    private final Boolean pathStyle;
    private final String accessKeyId;
    private final String secretAccessKey;
    private final boolean gzip;
    private final boolean conditionalWrites;
    private final Duration connectTimeout;
    private final Duration readTimeout;

    private S3StorageConfig(Builder b) {
        this.bucket = b.bucket;
        this.prefix = b.prefix;
        this.region = b.region;
        this.endpoint = b.endpoint;
        this.pathStyle = b.pathStyle;
        this.accessKeyId = b.accessKeyId;
        this.secretAccessKey = b.secretAccessKey;
        this.gzip = b.gzip;
        this.conditionalWrites = b.conditionalWrites;
        this.connectTimeout = b.connectTimeout;
        this.readTimeout = b.readTimeout;
    }

    /** A builder with the defaults; {@link Builder#bucket(String)} must be set before {@link Builder#build()}. */
    public static Builder custom() {
        return new Builder();
    }

    /** The defaults for {@code bucket}: no prefix, AWS S3 with the SDK's default region and credentials. */
    public static S3StorageConfig ofDefaults(String bucket) {
        return custom().bucket(bucket).build();
    }

    /** A builder pre-filled with these settings. */
    public Builder toBuilder() {
        var b = new Builder();
        b.bucket = bucket;
        b.prefix = prefix;
        b.region = region;
        b.endpoint = endpoint;
        b.pathStyle = pathStyle;
        b.accessKeyId = accessKeyId;
        b.secretAccessKey = secretAccessKey;
        b.gzip = gzip;
        b.conditionalWrites = conditionalWrites;
        b.connectTimeout = connectTimeout;
        b.readTimeout = readTimeout;
        return b;
    }

    /** The bucket holding the checkpoints; it must exist. */
    public String bucket() {
        return bucket;
    }

    /** Key prefix without leading or trailing slash; empty for the bucket root. */
    public String prefix() {
        return prefix;
    }

    /** The region, when set explicitly. */
    public Optional<String> region() {
        return Optional.ofNullable(region);
    }

    /** The endpoint of an S3-compatible store, when set. */
    public Optional<URI> endpoint() {
        return Optional.ofNullable(endpoint);
    }

    /** Whether to address the bucket in the path ({@code http://host/bucket/key}); defaults to true exactly when an endpoint is set. */
    public boolean pathStyle() {
        return pathStyle != null ? pathStyle : endpoint != null;
    }

    /** The access key id, when credentials are given explicitly. */
    public Optional<String> accessKeyId() {
        return Optional.ofNullable(accessKeyId);
    }

    /** The secret access key, when credentials are given explicitly. */
    public Optional<String> secretAccessKey() {
        return Optional.ofNullable(secretAccessKey);
    }

    /** Whether checkpoint bodies are gzip-compressed (reads handle both forms regardless). */
    public boolean gzip() {
        return gzip;
    }

    /**
     * Whether the store honours {@code If-None-Match: *} on PUT (AWS S3, MinIO and S3Proxy do). When
     * false, conflicts are detected by reading before and after each write, which narrows but does not
     * close the window in which two writers can both succeed.
     */
    public boolean conditionalWrites() {
        return conditionalWrites;
    }

    /** How long to wait for a connection. */
    public Duration connectTimeout() {
        return connectTimeout;
    }

    /** How long to wait for response data. */
    public Duration readTimeout() {
        return readTimeout;
    }

    /** {@code s3://bucket/prefix/}, for messages. */
    public String location() {
        return "s3://" + bucket + "/" + (prefix.isEmpty() ? "" : prefix + "/");
    }

    @Override
    public String toString() {
        return "S3StorageConfig[bucket=" + bucket + ", prefix=" + prefix + ", region=" + region + ", endpoint="
                + endpoint + ", pathStyle=" + pathStyle() + ", credentials="
                + (accessKeyId == null ? "default chain" : accessKeyId + "/****") + ", gzip=" + gzip
                + ", conditionalWrites=" + conditionalWrites + ", connectTimeout=" + connectTimeout
                + ", readTimeout=" + readTimeout + "]";
    }

    /** Builds {@link S3StorageConfig}s; each method checks its argument. */
    public static final class Builder {
        private String bucket;
        private String prefix = "";
        private String region;
        private URI endpoint;
        private Boolean pathStyle;
        private String accessKeyId;
        private String secretAccessKey;
        private boolean gzip;
        private boolean conditionalWrites = true;
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private Duration readTimeout = DEFAULT_READ_TIMEOUT;

        private Builder() {
        }

        /** The bucket (3 to 255 characters of lower-case letters, digits, dots, dashes, underscores). */
        public Builder bucket(String bucket) {
            Objects.requireNonNull(bucket, "bucket");
            if (!BUCKET.matcher(bucket).matches()) {
                throw new IllegalArgumentException("Not a valid S3 bucket name: '" + bucket + "'");
            }
            this.bucket = bucket;
            return this;
        }

        /** A key prefix such as {@code agents/prod}; leading and trailing slashes are dropped. */
        public Builder prefix(String prefix) {
            Objects.requireNonNull(prefix, "prefix");
            String trimmed = prefix.strip();
            while (trimmed.startsWith("/")) {
                trimmed = trimmed.substring(1);
            }
            while (trimmed.endsWith("/")) {
                trimmed = trimmed.substring(0, trimmed.length() - 1);
            }
            if (trimmed.contains("//")) {
                throw new IllegalArgumentException("prefix must not contain an empty segment: '" + prefix + "'");
            }
            for (int i = 0; i < trimmed.length(); i++) {
                if (Character.isISOControl(trimmed.charAt(i))) {
                    throw new IllegalArgumentException("prefix must not contain control characters: '" + prefix + "'");
                }
            }
            if (trimmed.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_PREFIX_BYTES) {
                throw new IllegalArgumentException("prefix must be at most " + MAX_PREFIX_BYTES + " bytes long");
            }
            this.prefix = trimmed;
            return this;
        }

        /** The region, for example {@code eu-central-1}. */
        public Builder region(String region) {
            Objects.requireNonNull(region, "region");
            if (region.isBlank()) {
                throw new IllegalArgumentException("region must not be blank");
            }
            this.region = region.strip();
            return this;
        }

        /** The endpoint of an S3-compatible store, for example {@code http://127.0.0.1:9000}. */
        public Builder endpoint(URI endpoint) {
            Objects.requireNonNull(endpoint, "endpoint");
            if (endpoint.getScheme() == null || endpoint.getHost() == null
                    || !(endpoint.getScheme().equals("http") || endpoint.getScheme().equals("https"))) {
                throw new IllegalArgumentException("endpoint must be an http or https URI with a host: " + endpoint);
            }
            this.endpoint = endpoint;
            return this;
        }

        /** Forces path-style ({@code true}) or virtual-host-style ({@code false}) addressing. */
        public Builder pathStyle(boolean pathStyle) {
            this.pathStyle = pathStyle;
            return this;
        }

        /** Explicit credentials instead of the SDK's default chain. */
        public Builder credentials(String accessKeyId, String secretAccessKey) {
            Objects.requireNonNull(accessKeyId, "accessKeyId");
            Objects.requireNonNull(secretAccessKey, "secretAccessKey");
            if (accessKeyId.isBlank() || secretAccessKey.isBlank()) {
                throw new IllegalArgumentException("accessKeyId and secretAccessKey must not be blank");
            }
            this.accessKeyId = accessKeyId;
            this.secretAccessKey = secretAccessKey;
            return this;
        }

        /** Compress checkpoint bodies with gzip (default false). */
        public Builder gzip(boolean gzip) {
            this.gzip = gzip;
            return this;
        }

        /** Whether the store honours {@code If-None-Match: *} on PUT (default true); see {@link S3StorageConfig#conditionalWrites()}. */
        public Builder conditionalWrites(boolean conditionalWrites) {
            this.conditionalWrites = conditionalWrites;
            return this;
        }

        /** Connect timeout, positive. */
        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = positive(connectTimeout, "connectTimeout");
            return this;
        }

        /** Read timeout, positive. */
        public Builder readTimeout(Duration readTimeout) {
            this.readTimeout = positive(readTimeout, "readTimeout");
            return this;
        }

        /**
         * The configuration.
         *
         * @throws IllegalStateException when no bucket was set
         */
        public S3StorageConfig build() {
            if (bucket == null) {
                throw new IllegalStateException("S3StorageConfig needs a bucket");
            }
            return new S3StorageConfig(this);
        }

        private static Duration positive(Duration value, String what) {
            Objects.requireNonNull(value, what);
            if (value.isZero() || value.isNegative()) {
                throw new IllegalArgumentException(what + " must be positive but was " + value);
            }
            return value;
        }
    }
}
