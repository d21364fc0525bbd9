package dev.agentpersistence.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.spi.ProviderConfig;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CodecSettingsTest {
    private static final String K1 = Base64.getEncoder().encodeToString(DocumentLayersTest.KEY_1);
    private static final String K2 = Base64.getUrlEncoder().encodeToString(DocumentLayersTest.KEY_2);

    @Test
    void defaultsAreCompressionAndChecksumOnNoEncryptionA64MiBLimit() {
        var codec = CodecSettings.codec(ProviderConfig.empty());
        assertThat(codec.layers().compresses()).isTrue();
        assertThat(codec.layers().compressionLevel()).isEqualTo(1);
        assertThat(codec.layers().compressionMinSize()).isEqualTo(512);
        assertThat(codec.layers().checksum()).isTrue();
        assertThat(codec.layers().encrypts()).isFalse();
        assertThat(codec.sizeLimit()).hasValue(64L << 20);
        assertThat(CodecSettings.codec(ProviderConfig.of(
                                Map.of(CodecSettings.CHECKSUM.key(), "false", CodecSettings.COMPRESSION.key(), "none")))
                        .layers()
                        .writesPlain())
                .isTrue();
        assertThat(codec.toString()).contains("compression=lz4(from 512 bytes)", "checksum=true");
        assertThat(codec.layers().compressionAlgorithm()).isEqualTo(CompressionAlgorithm.LZ4);
        assertThat(CodecSettings.codec(ProviderConfig.of(Map.of(CodecSettings.COMPRESSION.key(), "deflate")))
                        .toString())
                .contains("compression=deflate(level 1, from 512 bytes)");
    }

    @Test
    void compressionSettingsComeFromTheSettingsOrTheEnvironmentForm() {
        var layers = CodecSettings.layers(ProviderConfig.of(Map.of(
                CodecSettings.COMPRESSION.key(),
                " DEFLATE ",
                "AGENT_PERSISTENCE_COMPRESSION_LEVEL",
                "6",
                CodecSettings.COMPRESSION_MIN_SIZE.key(),
                "2KiB")));
        assertThat(layers.compresses()).isTrue();
        assertThat(layers.compressionLevel()).isEqualTo(6);
        assertThat(layers.compressionMinSize()).isEqualTo(2048);
        assertThat(CodecSettings.layers(ProviderConfig.of(Map.of("AGENT_PERSISTENCE_COMPRESSION", "none")))
                        .compresses())
                .isFalse();
        assertThat(CodecSettings.layers(ProviderConfig.of(Map.of(CodecSettings.COMPRESSION_MIN_SIZE.key(), "0")))
                        .compressionMinSize())
                .isZero();
        assertThat(CodecSettings.layers(ProviderConfig.of(Map.of(
                                CodecSettings.COMPRESSION.key(), "", CodecSettings.COMPRESSION_LEVEL.key(), " ")))
                        .compressionLevel())
                .as("blank means default")
                .isEqualTo(1);
    }

    @Test
    void malformedCompressionSettingsNameTheSettingAndTheValue() {
        assertRejected(
                Map.of(CodecSettings.COMPRESSION.key(), "gzip"),
                "'agent.persistence.compression' (environment AGENT_PERSISTENCE_COMPRESSION) must be one of lz4, "
                        + "deflate, none"
                        + " but was 'gzip'",
                "");
        for (String level : new String[] {"0", "10", "-1", "fast", "1.5"}) {
            assertRejected(
                    Map.of(CodecSettings.COMPRESSION_LEVEL.key(), level),
                    "'agent.persistence.compression.level' "
                            + "(environment AGENT_PERSISTENCE_COMPRESSION_LEVEL) must be an integer from 1 to 9 but "
                            + "was '"
                            + level + "'",
                    "");
        }
        for (String size : new String[] {"-1", "1 parsec", "KiB", "99999999999999999999"}) {
            assertRejected(
                    Map.of(CodecSettings.COMPRESSION_MIN_SIZE.key(), size),
                    "agent.persistence.compression.min-size",
                    "");
        }
        assertThatThrownBy(() ->
                        CodecSettings.codec(ProviderConfig.of(Map.of(CodecSettings.MAX_CHECKPOINT_SIZE.key(), "0"))))
                .as("zero is only a valid threshold, not a valid maximum")
                .hasMessageContaining("a size of at least 1");
    }

    @Test
    void keysAndCurrentKeyComeFromTheSettingsOrTheEnvironmentForm() {
        var config = ProviderConfig.of(Map.of(
                "AGENT_PERSISTENCE_ENCRYPTION_KEYS",
                "k1:" + K1 + ", k2:" + K2,
                "AGENT_PERSISTENCE_ENCRYPTION_CURRENT_KEY",
                "k2"));
        var layers = CodecSettings.layers(config);
        assertThat(layers.keys()).get().satisfies(keys -> {
            assertThat(keys.currentKeyId()).isEqualTo("k2");
            assertThat(keys.keyIds()).containsExactly("k1", "k2");
        });
        assertThat(CodecSettings.layers(ProviderConfig.of(Map.of(CodecSettings.ENCRYPTION_KEYS.key(), "only:" + K1)))
                        .keys()
                        .orElseThrow()
                        .currentKeyId())
                .isEqualTo("only");
    }

    @Test
    void malformedKeySettingsNameTheSettingButNeverTheKey() {
        String shortKey = Base64.getEncoder().encodeToString(new byte[16]);
        assertRejected(
                Map.of(CodecSettings.ENCRYPTION_KEYS.key(), "k1:" + shortKey), "does not hold a 32-byte key", shortKey);
        assertRejected(
                Map.of(CodecSettings.ENCRYPTION_KEYS.key(), "k1:not base64!!"),
                "does not hold a 32-byte key",
                "not base64");
        assertRejected(Map.of(CodecSettings.ENCRYPTION_KEYS.key(), K1), "no key id", K1);
        assertRejected(Map.of(CodecSettings.ENCRYPTION_KEYS.key(), "k1:" + K1 + ",k2:" + K2), "no current key", K1);
        assertRejected(
                Map.of(
                        CodecSettings.ENCRYPTION_KEYS.key(),
                        "k1:" + K1,
                        CodecSettings.ENCRYPTION_CURRENT_KEY.key(),
                        "k9"),
                "'k9' is not among",
                K1);
        assertRejected(Map.of(CodecSettings.ENCRYPTION_KEYS.key(), "k1:" + K1 + ",k1:" + K2), "given twice", K1);
        assertRejected(Map.of(CodecSettings.ENCRYPTION_KEYS.key(), "bad id:" + K1), "malformed key id", K1);
        assertRejected(Map.of(CodecSettings.ENCRYPTION_CURRENT_KEY.key(), "k1"), "encryption.keys", "");
        assertRejected(Map.of(CodecSettings.ENCRYPTION_REQUIRED.key(), "true"), "encryption.keys", "");
    }

    @Test
    void providerConfigHidesTheKeys() {
        var config = ProviderConfig.of(Map.of(CodecSettings.ENCRYPTION_KEYS.key(), "k1:" + K1));
        assertThat(config.toString()).doesNotContain(K1).contains("****");
    }

    @Test
    void sizesTakeUnits() {
        assertThat(size("1048576")).isEqualTo(1_048_576L);
        assertThat(size("512KiB")).isEqualTo(512L * 1024);
        assertThat(size("16MiB")).isEqualTo(16L << 20);
        assertThat(size("16m")).isEqualTo(16L << 20);
        assertThat(size("10MB")).isEqualTo(10_000_000L);
        assertThat(size("2 GiB")).isEqualTo(2L << 30);
        for (String bad : new String[] {"MiB", "-1", "0", "12 parsecs", "99999999999999999999"}) {
            assertThatThrownBy(() -> size(bad))
                    .as(bad)
                    .isInstanceOf(PersistenceException.class)
                    .hasMessageContaining("agent.persistence.max-checkpoint-size");
        }
        assertThat(CodecSettings.codec(ProviderConfig.of(Map.of(CodecSettings.MAX_CHECKPOINT_SIZE.key(), "1KiB")))
                        .maxDocumentSize())
                .isEqualTo(1024);
    }

    private static void assertRejected(Map<String, String> settings, String message, String secret) {
        assertThatThrownBy(() -> CodecSettings.codec(ProviderConfig.of(settings)))
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining(message)
                .satisfies(e -> {
                    if (!secret.isEmpty()) {
                        assertThat(e.getMessage()).doesNotContain(secret);
                    }
                });
    }

    private static long size(String text) {
        return CodecSettings.codec(ProviderConfig.of(Map.of(CodecSettings.MAX_CHECKPOINT_SIZE.key(), text)))
                .maxDocumentSize();
    }
}
