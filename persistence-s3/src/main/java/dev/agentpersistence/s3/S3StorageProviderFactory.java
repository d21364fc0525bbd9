package dev.agentpersistence.s3;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.Setting;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.CheckpointFilter;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Discovers the S3 provider under the name {@value #NAME}, from the settings declared below
 * ({@link #settings()}) and the keys every provider shares ({@link StorageSettings#from(ProviderConfig)}).
 */
public final class S3StorageProviderFactory implements PersistenceStorageProviderFactory {
    /** The provider name. */
    public static final String NAME = "s3";
    /** The bucket; required. */
    public static final Setting<String> BUCKET_SETTING = Setting.text("agent.persistence.s3.bucket", null,
            "The bucket (required).");
    /** Key prefix inside the bucket. */
    public static final Setting<String> PREFIX_SETTING = Setting.text("agent.persistence.s3.prefix", null,
            "Key prefix inside the bucket.");
    /** Region; else the SDK's default chain. */
    public static final Setting<String> REGION_SETTING = Setting.text("agent.persistence.s3.region", null,
            "Region; else the SDK's default region chain.");
    /** Endpoint of an S3-compatible store. */
    public static final Setting<String> ENDPOINT_SETTING = Setting.text("agent.persistence.s3.endpoint", null,
            "Endpoint of an S3-compatible store (MinIO, Ceph, ...), without credentials.");
    /** Path-style addressing. */
    public static final Setting<Boolean> PATH_STYLE_SETTING = Setting.bool("agent.persistence.s3.path-style", false,
            "Path-style addressing (on by itself when an endpoint is set).");
    /** Access key id; with the secret, else the SDK's default chain. */
    public static final Setting<String> ACCESS_KEY_ID_SETTING = Setting.text("agent.persistence.s3.access-key-id", null,
            "Access key id (with the secret access key), else the SDK's default credentials chain.");
    /** Secret access key. */
    public static final Setting<String> SECRET_ACCESS_KEY_SETTING = Setting.text("agent.persistence.s3.secret-access-key",
            null, "Secret access key.").secret();
    /** Gzip bodies. */
    public static final Setting<Boolean> GZIP_SETTING = Setting.bool("agent.persistence.s3.gzip", false,
            "Gzip what the stored form produced (little gain over its own compression).");
    /** Conditional writes. */
    public static final Setting<Boolean> CONDITIONAL_WRITES_SETTING = Setting.bool("agent.persistence.s3.conditional-writes",
            true, "If-None-Match / If-Match writes; off only for stores without them (then a check before writing).");
    /** Connection timeout. */
    public static final Setting<Duration> CONNECT_TIMEOUT_SETTING = Setting.duration("agent.persistence.s3.connect-timeout",
            S3StorageConfig.DEFAULT_CONNECT_TIMEOUT, "Time allowed to open a connection.");
    /** Read timeout. */
    public static final Setting<Duration> READ_TIMEOUT_SETTING = Setting.duration("agent.persistence.s3.read-timeout",
            S3StorageConfig.DEFAULT_READ_TIMEOUT, "Time allowed for a response.");
    /** Every S3 setting, in documentation order. */
    public static final List<Setting<?>> SETTINGS = List.of(BUCKET_SETTING, PREFIX_SETTING, REGION_SETTING,
            ENDPOINT_SETTING, PATH_STYLE_SETTING, ACCESS_KEY_ID_SETTING, SECRET_ACCESS_KEY_SETTING, GZIP_SETTING,
            CONDITIONAL_WRITES_SETTING, CONNECT_TIMEOUT_SETTING, READ_TIMEOUT_SETTING);

    /** The key of {@link #BUCKET_SETTING}. */
    public static final String BUCKET = BUCKET_SETTING.key();
    /** The key of {@link #PREFIX_SETTING}. */
    public static final String PREFIX = PREFIX_SETTING.key();
    /** The key of {@link #REGION_SETTING}. */
    public static final String REGION = REGION_SETTING.key();
    /** The key of {@link #ENDPOINT_SETTING}. */
    public static final String ENDPOINT = ENDPOINT_SETTING.key();
    /** The key of {@link #PATH_STYLE_SETTING}. */
    public static final String PATH_STYLE = PATH_STYLE_SETTING.key();
    /** The key of {@link #ACCESS_KEY_ID_SETTING}. */
    public static final String ACCESS_KEY_ID = ACCESS_KEY_ID_SETTING.key();
    /** The key of {@link #SECRET_ACCESS_KEY_SETTING}. */
    public static final String SECRET_ACCESS_KEY = SECRET_ACCESS_KEY_SETTING.key();
    /** The key of {@link #GZIP_SETTING}. */
    public static final String GZIP = GZIP_SETTING.key();
    /** The key of {@link #CONDITIONAL_WRITES_SETTING}. */
    public static final String CONDITIONAL_WRITES = CONDITIONAL_WRITES_SETTING.key();
    /** The key of {@link #CONNECT_TIMEOUT_SETTING}. */
    public static final String CONNECT_TIMEOUT = CONNECT_TIMEOUT_SETTING.key();
    /** The key of {@link #READ_TIMEOUT_SETTING}. */
    public static final String READ_TIMEOUT = READ_TIMEOUT_SETTING.key();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public PersistenceStorageProvider<CheckpointFilter> create(ProviderConfig config) {
        return S3StorageProvider.builder(toConfig(config)).settings(StorageSettings.from(config)).build();
    }

    /**
     * The {@link S3StorageConfig} the settings describe.
     *
     * @throws PersistenceException naming the setting (and its environment variable) that is missing or invalid
     */
    public static S3StorageConfig toConfig(ProviderConfig config) {
        Objects.requireNonNull(config, "config");
        var builder = S3StorageConfig.custom();
        apply(BUCKET, () -> builder.bucket(config.require(BUCKET).strip()));
        config.get(PREFIX).ifPresent(v -> apply(PREFIX, () -> builder.prefix(v)));
        config.get(REGION).filter(v -> !v.isBlank()).ifPresent(v -> apply(REGION, () -> builder.region(v)));
        config.get(ENDPOINT).filter(v -> !v.isBlank()).ifPresent(v -> apply(ENDPOINT, () -> builder.endpoint(uri(v))));
        if (config.get(PATH_STYLE).isPresent()) {
            builder.pathStyle(config.getBoolean(PATH_STYLE, false));
        }
        var keyId = config.get(ACCESS_KEY_ID).filter(v -> !v.isBlank());
        var secret = config.get(SECRET_ACCESS_KEY).filter(v -> !v.isBlank());
        if (keyId.isPresent() != secret.isPresent()) {
            throw new PersistenceException("Set both " + ACCESS_KEY_ID + " and " + SECRET_ACCESS_KEY
                    + " (environment " + ProviderConfig.environmentName(ACCESS_KEY_ID) + " and "
                    + ProviderConfig.environmentName(SECRET_ACCESS_KEY) + "), or neither to use the default credentials chain");
        }
        keyId.ifPresent(id -> builder.credentials(id, secret.get()));
        builder.gzip(GZIP_SETTING.read(config));
        builder.conditionalWrites(CONDITIONAL_WRITES_SETTING.read(config));
        config.getDuration(CONNECT_TIMEOUT).ifPresent(d -> apply(CONNECT_TIMEOUT, () -> builder.connectTimeout(d)));
        config.getDuration(READ_TIMEOUT).ifPresent(d -> apply(READ_TIMEOUT, () -> builder.readTimeout(d)));
        return builder.build();
    }

    @Override
    public List<Setting<?>> settings() {
        return SETTINGS;
    }

    private static URI uri(String value) {
        URI uri;
        try {
            uri = new URI(value.strip());
        } catch (URISyntaxException e) {
            // Not chained: the parser's message quotes the whole value, credentials included.
            throw new IllegalArgumentException("not a URI: " + ProviderConfig.redact(e.getMessage()));
        }
        if (uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException("the endpoint must not carry credentials (" + ProviderConfig.redact(value)
                    + "); set " + ACCESS_KEY_ID + " and " + SECRET_ACCESS_KEY + " instead");
        }
        return uri;
    }

    private static void apply(String key, Runnable setter) {
        try {
            setter.run();
        } catch (IllegalArgumentException e) {
            throw new PersistenceException("Invalid setting " + key + " (environment "
                    + ProviderConfig.environmentName(key) + "): " + e.getMessage(), e);
        }
    }
}
