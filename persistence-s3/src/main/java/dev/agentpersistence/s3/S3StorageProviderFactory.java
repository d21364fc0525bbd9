package dev.agentpersistence.s3;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.spi.PersistenceStorageProviderFactory;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.storage.StorageSettings;
import dev.agentpersistence.CheckpointFilter;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Objects;

/**
 * Discovers the S3 provider under the name {@value #NAME}. Settings (environment form in brackets):
 * <ul>
 *   <li>{@value #BUCKET} [{@code AGENT_PERSISTENCE_S3_BUCKET}], required;</li>
 *   <li>{@value #PREFIX}, {@value #REGION}, {@value #ENDPOINT} (an S3-compatible store),
 *       {@value #PATH_STYLE} (default: true when an endpoint is set);</li>
 *   <li>{@value #ACCESS_KEY_ID} and {@value #SECRET_ACCESS_KEY}, else the SDK's default chain;</li>
 *   <li>{@value #GZIP} (default false), {@value #CONDITIONAL_WRITES} (default true),
 *       {@value #CONNECT_TIMEOUT} (default 5s), {@value #READ_TIMEOUT} (default 60s);</li>
 *   <li>the keys every provider shares ({@link StorageSettings#from(ProviderConfig)}).</li>
 * </ul>
 */
public final class S3StorageProviderFactory implements PersistenceStorageProviderFactory {
    /** The provider name. */
    public static final String NAME = "s3";
    public static final String BUCKET = "agent.persistence.s3.bucket";
    public static final String PREFIX = "agent.persistence.s3.prefix";
    public static final String REGION = "agent.persistence.s3.region";
    public static final String ENDPOINT = "agent.persistence.s3.endpoint";
    public static final String PATH_STYLE = "agent.persistence.s3.path-style";
    public static final String ACCESS_KEY_ID = "agent.persistence.s3.access-key-id";
    public static final String SECRET_ACCESS_KEY = "agent.persistence.s3.secret-access-key";
    public static final String GZIP = "agent.persistence.s3.gzip";
    public static final String CONDITIONAL_WRITES = "agent.persistence.s3.conditional-writes";
    public static final String CONNECT_TIMEOUT = "agent.persistence.s3.connect-timeout";
    public static final String READ_TIMEOUT = "agent.persistence.s3.read-timeout";

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
        builder.gzip(config.getBoolean(GZIP, false));
        builder.conditionalWrites(config.getBoolean(CONDITIONAL_WRITES, true));
        config.getDuration(CONNECT_TIMEOUT).ifPresent(d -> apply(CONNECT_TIMEOUT, () -> builder.connectTimeout(d)));
        config.getDuration(READ_TIMEOUT).ifPresent(d -> apply(READ_TIMEOUT, () -> builder.readTimeout(d)));
        return builder.build();
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
