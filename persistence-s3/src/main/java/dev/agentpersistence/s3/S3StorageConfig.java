package dev.agentpersistence.s3;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.settings.SettingValues;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageShell;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Immutable settings of an {@link StorageShell}, each declared once below. Build one with {@link #custom()}, take
 * {@link #ofDefaults(String)}, or read the keys with {@link #from(ProviderConfig)}.
 *
 * <p>Only {@link #bucket()} is required. Without {@link #endpoint()} the client talks to AWS S3 in {@link #region()}
 * (or the region of the SDK's default chain); with one it talks to an S3-compatible store. Without explicit keys the
 * SDK's default credentials chain is used. Settings about the connection (endpoint, region, path style, credentials,
 * timeouts) are ignored when the provider is given an {@code S3Client} of the caller's.
 */
public final class S3StorageConfig {
    /** The bucket; required. */
    public static final Setting<String> BUCKET = Setting.text(
                    "agent.persistence.s3.bucket", null, "The bucket (required).")
            .checkedBy(bucket -> bucket.matches("[a-z0-9][a-z0-9.\\-_]{1,254}")
                    ? null
                    : "3 to 255 lower-case letters, digits, dots, dashes or underscores");
    /** Key prefix inside the bucket; slashes around it are dropped. */
    public static final Setting<String> PREFIX = Setting.text(
                    "agent.persistence.s3.prefix", null, "Key prefix inside the bucket.")
            .checkedBy(S3StorageConfig::prefixProblem);
    /** Region; else the SDK's default chain. */
    public static final Setting<String> REGION =
            Setting.text("agent.persistence.s3.region", null, "Region; else the SDK's default region chain.");
    /** Endpoint of an S3-compatible store. */
    public static final Setting<URI> ENDPOINT = Setting.custom(
                    "agent.persistence.s3.endpoint",
                    "uri",
                    null,
                    "an http or https URI with a host and no credentials",
                    URI::create,
                    URI::toString,
                    "Endpoint of an S3-compatible store (MinIO, Ceph, ...), without credentials.")
            .redacted()
            .checkedBy(uri -> ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
                            && uri.getHost() != null
                            && uri.getRawUserInfo() == null
                    ? null
                    : "an http or https URI with a host and no credentials");
    /** Path-style addressing; unset, it is on exactly when an endpoint is set. */
    public static final Setting<Boolean> PATH_STYLE = Setting.bool(
            "agent.persistence.s3.path-style",
            null,
            "Path-style addressing (unset: on exactly when an endpoint is set).");
    /** Access key id; with the secret, else the SDK's default chain. */
    public static final Setting<String> ACCESS_KEY_ID = Setting.text(
            "agent.persistence.s3.access-key-id",
            null,
            "Access key id (with the secret access key), else the SDK's default credentials chain.");
    /** Secret access key. */
    public static final Setting<String> SECRET_ACCESS_KEY = Setting.text(
                    "agent.persistence.s3.secret-access-key", null, "Secret access key.")
            .secret();
    /** Gzip bodies. */
    public static final Setting<Boolean> GZIP = Setting.bool(
            "agent.persistence.s3.gzip",
            false,
            "Gzip what the stored form produced (little gain over its own compression).");
    /** Conditional writes. */
    public static final Setting<Boolean> CONDITIONAL_WRITES = Setting.bool(
            "agent.persistence.s3.conditional-writes",
            true,
            "If-None-Match / If-Match writes; off only for stores without them (then a check before writing).");
    /** Connection timeout. */
    public static final Setting<Duration> CONNECT_TIMEOUT = Setting.duration(
            "agent.persistence.s3.connect-timeout", Duration.ofSeconds(5), "Time allowed to open a connection.");
    /** Read timeout. */
    public static final Setting<Duration> READ_TIMEOUT = Setting.duration(
            "agent.persistence.s3.read-timeout", Duration.ofSeconds(60), "Time allowed for a response.");
    /** Every S3 setting, in documentation order. */
    public static final List<Setting<?>> SETTINGS = List.of(
            BUCKET,
            PREFIX,
            REGION,
            ENDPOINT,
            PATH_STYLE,
            ACCESS_KEY_ID,
            SECRET_ACCESS_KEY,
            GZIP,
            CONDITIONAL_WRITES,
            CONNECT_TIMEOUT,
            READ_TIMEOUT);

    private final SettingValues values;

    private S3StorageConfig(SettingValues values) {
        this.values = values;
    }

    /** A builder with the defaults; {@link Builder#bucket(String)} must be set before {@link Builder#build()}. */
    public static Builder custom() {
        return new Builder(SettingValues.defaults(SETTINGS));
    }

    /** The defaults for {@code bucket}: no prefix, AWS S3 with the SDK's default region and credentials. */
    public static S3StorageConfig ofDefaults(String bucket) {
        return custom().bucket(bucket).build();
    }

    /**
     * Reads the {@code agent.persistence.s3.*} keys.
     *
     * @throws PersistenceException naming the setting (and its environment variable) that is missing or invalid
     */
    public static S3StorageConfig from(ProviderConfig config) {
        BUCKET.read(config); // a missing bucket is named with its key and environment variable
        var values = SettingValues.read(SETTINGS, config);
        if (values.find(ACCESS_KEY_ID).isPresent()
                != values.find(SECRET_ACCESS_KEY).isPresent()) {
            throw new PersistenceException("Set both " + ACCESS_KEY_ID.key() + " and " + SECRET_ACCESS_KEY.key()
                    + " (environment " + ACCESS_KEY_ID.environmentName() + " and " + SECRET_ACCESS_KEY.environmentName()
                    + "), or neither to use the default credentials chain");
        }
        return new S3StorageConfig(values);
    }

    /** A builder pre-filled with these settings. */
    public Builder toBuilder() {
        return new Builder(values);
    }

    /** The bucket holding the checkpoints; it must exist. */
    public String bucket() {
        return values.get(BUCKET);
    }

    /** Key prefix without leading or trailing slash; empty for the bucket root. */
    public String prefix() {
        return values.find(PREFIX).map(S3StorageConfig::trimSlashes).orElse("");
    }

    /** The region, when set explicitly. */
    public Optional<String> region() {
        return values.find(REGION);
    }

    /** The endpoint of an S3-compatible store, when set. */
    public Optional<URI> endpoint() {
        return values.find(ENDPOINT);
    }

    /**
     * Whether to address the bucket in the path ({@code http://host/bucket/key}); by default exactly when an endpoint
     * is set.
     */
    public boolean pathStyle() {
        return values.find(PATH_STYLE).orElse(endpoint().isPresent());
    }

    /** The access key id, when credentials are given explicitly. */
    public Optional<String> accessKeyId() {
        return values.find(ACCESS_KEY_ID);
    }

    /** The secret access key, when credentials are given explicitly. */
    public Optional<String> secretAccessKey() {
        return values.find(SECRET_ACCESS_KEY);
    }

    /** Whether checkpoint bodies are gzip-compressed (reads handle both forms regardless). */
    public boolean gzip() {
        return values.get(GZIP);
    }

    /**
     * Whether the store honours {@code If-None-Match: *} on PUT (AWS S3, MinIO and S3Proxy do). When false, conflicts
     * are detected by reading before and after each write, which narrows but does not close the window in which two
     * writers can both succeed.
     */
    public boolean conditionalWrites() {
        return values.get(CONDITIONAL_WRITES);
    }

    /** How long to wait for a connection. */
    public Duration connectTimeout() {
        return values.get(CONNECT_TIMEOUT);
    }

    /** How long to wait for response data. */
    public Duration readTimeout() {
        return values.get(READ_TIMEOUT);
    }

    /** {@code s3://bucket/prefix/}, for messages. */
    public String location() {
        return "s3://" + bucket() + "/" + (prefix().isEmpty() ? "" : prefix() + "/");
    }

    /** The settings, the secret hidden. */
    @Override
    public String toString() {
        return "S3StorageConfig" + values;
    }

    /** Builds {@link S3StorageConfig}s; each method checks its argument against the declaration. */
    public static final class Builder {
        private SettingValues values;

        private Builder(SettingValues values) {
            this.values = values;
        }

        /** The bucket (3 to 255 characters of lower-case letters, digits, dots, dashes, underscores). */
        public Builder bucket(String bucket) {
            values = values.with(BUCKET, bucket);
            return this;
        }

        /** A key prefix such as {@code agents/prod}; leading and trailing slashes are dropped. */
        public Builder prefix(String prefix) {
            String trimmed = trimSlashes(Objects.requireNonNull(prefix, "prefix"));
            values = trimmed.isEmpty() ? values.without(PREFIX) : values.with(PREFIX, trimmed);
            return this;
        }

        /** The region, for example {@code eu-central-1}. */
        public Builder region(String region) {
            values = values.with(REGION, region);
            return this;
        }

        /** The endpoint of an S3-compatible store, for example {@code http://127.0.0.1:9000}. */
        public Builder endpoint(URI endpoint) {
            values = values.with(ENDPOINT, endpoint);
            return this;
        }

        /** Forces path-style ({@code true}) or virtual-host-style ({@code false}) addressing. */
        public Builder pathStyle(boolean pathStyle) {
            values = values.with(PATH_STYLE, pathStyle);
            return this;
        }

        /** Explicit credentials instead of the SDK's default chain. */
        public Builder credentials(String accessKeyId, String secretAccessKey) {
            values = values.with(ACCESS_KEY_ID, accessKeyId).with(SECRET_ACCESS_KEY, secretAccessKey);
            return this;
        }

        /** Compress checkpoint bodies with gzip (default false). */
        public Builder gzip(boolean gzip) {
            values = values.with(GZIP, gzip);
            return this;
        }

        /**
         * Whether the store honours {@code If-None-Match: *} on PUT (default true); see
         * {@link S3StorageConfig#conditionalWrites()}.
         */
        public Builder conditionalWrites(boolean conditionalWrites) {
            values = values.with(CONDITIONAL_WRITES, conditionalWrites);
            return this;
        }

        /** Connect timeout, positive. */
        public Builder connectTimeout(Duration connectTimeout) {
            values = values.with(CONNECT_TIMEOUT, connectTimeout);
            return this;
        }

        /** Read timeout, positive. */
        public Builder readTimeout(Duration readTimeout) {
            values = values.with(READ_TIMEOUT, readTimeout);
            return this;
        }

        /**
         * The configuration.
         *
         * @throws IllegalStateException when no bucket was set
         */
        public S3StorageConfig build() {
            if (values.find(BUCKET).isEmpty()) {
                throw new IllegalStateException("S3StorageConfig needs a bucket (" + BUCKET.key() + ")");
            }
            return new S3StorageConfig(values);
        }
    }

    private static String trimSlashes(String prefix) {
        String trimmed = prefix.strip();
        while (trimmed.startsWith("/")) {
            trimmed = trimmed.substring(1);
        }
        while (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return trimmed;
    }

    private static String prefixProblem(String prefix) {
        String trimmed = trimSlashes(prefix);
        boolean fine = !trimmed.contains("//")
                && trimmed.chars().noneMatch(Character::isISOControl)
                && trimmed.getBytes(StandardCharsets.UTF_8).length <= 256;
        return fine ? null : "at most 256 bytes without empty path segments or control characters";
    }
}
