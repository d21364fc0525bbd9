package dev.agentpersistence.s3.internal;

import dev.agentpersistence.s3.S3StorageConfig;
import dev.agentpersistence.s3.S3StorageProviderFactory;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/** Reads {@code s3://bucket[/prefix][?setting=value&…]} into {@code agent.persistence.s3.*} settings. */
public final class S3Uri {
    private static final String KEY_PREFIX = "agent.persistence.s3.";

    private S3Uri() {}

    /**
     * The store {@code value} names over {@code base}.
     *
     * @throws IllegalArgumentException without a bucket, or with a query parameter that is not {@code key=value}
     */
    public static StorageUri parse(String value, ProviderConfig base) {
        URI uri;
        try {
            uri = URI.create(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "s3 storage needs s3://bucket[/prefix] but was '" + ProviderConfig.redact(value) + "'", e);
        }
        String bucket = uri.getHost();
        if (bucket == null || bucket.isBlank()) {
            throw new IllegalArgumentException("s3 storage needs a bucket: s3://bucket[/prefix]");
        }
        ProviderConfig config = base.with(S3StorageConfig.BUCKET.key(), bucket);
        String prefix = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/", "");
        if (!prefix.isEmpty()) {
            config = config.with(S3StorageConfig.PREFIX.key(), prefix);
        }
        if (uri.getRawQuery() != null) {
            for (String pair : uri.getRawQuery().split("&")) {
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("s3 option '" + pair + "' is not key=value");
                }
                config = config.with(KEY_PREFIX + decode(pair.substring(0, eq)), decode(pair.substring(eq + 1)));
            }
        }
        return StorageUri.select(
                S3StorageProviderFactory.NAME, config, "s3://" + bucket + (prefix.isEmpty() ? "" : "/" + prefix));
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }
}
