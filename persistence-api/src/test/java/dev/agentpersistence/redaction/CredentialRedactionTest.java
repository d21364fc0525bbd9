package dev.agentpersistence.redaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.RedactedException;
import dev.agentpersistence.codec.CodecSettings;
import dev.agentpersistence.codec.EncryptionKeys;
import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.spi.ProviderConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.sql.SQLException;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Credentials never shown: {@link ProviderConfig#redact}, {@link Redactor}, settings and malformed encryption keys. */
class CredentialRedactionTest {
    private static final String SECRET = "S3CRETvalue";

    @ParameterizedTest
    @ValueSource(
            strings = {
                "jdbc:postgresql://127.0.0.1:1/x?sslpassword=S3CRETvalue&user=u",
                "jdbc:postgresql://db/x?user=u&trustStorePassword=S3CRETvalue",
                "jdbc:mysql://db/x?keyStorePassword=S3CRETvalue&useSSL=true",
                "https://s3.example?accessKey=S3CRETvalue",
                "https://api.example/v1?apiToken=S3CRETvalue#top",
                "https://api.example/v1?X-Amz-Security-Token=S3CRETvalue",
                "jdbc:sqlserver://db:1433;user=u;sslPassword=S3CRETvalue;encrypt=true",
                "jdbc:sqlserver://db:1433;user=u;password={S3CRETvalue;x};encrypt=true",
                "jdbc:h2:mem:x;USER=sa;PASSWORD=S3CRETvalue",
                "jdbc:postgresql://db/x?password=S3CRETvalue;more&user=u",
                "redis://:abc@defS3CRETvalue@host:6379",
                "redis://user:abc@S3CRETvalue@host:6379/0",
                "redis://:pre:S3CRETvalue@host",
                "redis://:ab?S3CRETvalue@host",
                "redis://abc@S3CRETvalue@host",
                "redis://:abc S3CRETvalue@host:6379",
                "jdbc:postgresql://u:a b@S3CRETvalue@host/db",
                "http://u:S3CRETvalue@host and again http://v:S3CRETvalue@other/path?x=1",
                "'redis://:S3CRETvalue@host'"
            })
    void credentialBearingPartsAreHidden(String text) {
        String shown = ProviderConfig.redact(text);
        assertThat(shown).doesNotContain(SECRET).doesNotContain("S3CRET").contains("****");
        assertThat(Redactor.redactText(text)).isEqualTo(shown);
    }

    @Test
    void everythingBeforeTheLastAtOfTheAuthorityIsUserInfo() {
        assertThat(ProviderConfig.redact("redis://:abc@defSECRET@host:6379/0")).isEqualTo("redis://:****@host:6379/0");
        assertThat(ProviderConfig.redact("redis://app:abc@def@host")).isEqualTo("redis://app:****@host");
        assertThat(ProviderConfig.redact("jdbc:postgresql://db/x?user=a@b.example"))
                .isEqualTo("jdbc:postgresql://db/x?user=a@b.example");
        assertThat(ProviderConfig.redact("redis://user@localhost:6379")).isEqualTo("redis://user@localhost:6379");
    }

    /** Every reserved character of RFC 3986, and {@code %}, unencoded inside a password. */
    @ParameterizedTest
    @ValueSource(
            strings = {"/", "?", "#", "[", "]", "@", ":", "!", "$", "&", "'", "(", ")", "*", "+", ",", ";", "=", "%"})
    void aPasswordHoldingAReservedCharacterIsHiddenWhole(String reserved) {
        String password = "pa" + reserved + "ss" + SECRET;
        String url = "jdbc:postgresql://app:" + password + "@db.example:5432/orders?ssl=true";
        var config = ProviderConfig.of(Map.of("agent.persistence.jdbc.url", url));

        String shown = config.toString();
        assertThat(shown).doesNotContain(SECRET).doesNotContain("ss" + SECRET).contains("db.example:5432/orders");
        assertThat(ProviderConfig.redact(url)).isEqualTo("jdbc:postgresql://app:****@db.example:5432/orders?ssl=true");

        String driverMessage = "Connection to " + url + " refused; password was " + password + " for app";
        String hidden = Redactor.forCredentialsIn(url).redact(driverMessage);
        assertThat(hidden).doesNotContain(SECRET).doesNotContain("ss" + SECRET).contains("db.example:5432/orders");
    }

    @Test
    void aSlashInThePasswordOfAUrlInsideAMessageIsHidden() {
        assertThat(ProviderConfig.redact("failed: jdbc:postgresql://app:pa/ss" + SECRET + "@db/x?ssl=true, retrying"))
                .isEqualTo("failed: jdbc:postgresql://app:****@db/x?ssl=true, retrying");
        assertThat(ProviderConfig.redact("redis://:a/b/c" + SECRET + "@cache:6379/0"))
                .isEqualTo("redis://:****@cache:6379/0");
    }

    @Test
    void harmlessParametersStay() {
        String url = "jdbc:postgresql://db:5432/app?user=app&ssl=true&sslmode=verify-full&ApplicationName=x";
        assertThat(ProviderConfig.redact(url)).isEqualTo(url);
        assertThat(ProviderConfig.redact("jdbc:postgresql://db/x?user=u&sslpassword=abc&ssl=true"))
                .isEqualTo("jdbc:postgresql://db/x?user=u&sslpassword=****&ssl=true");
    }

    @Test
    void redactedSettingsHideEveryCredentialParameter() {
        var url = Setting.text("agent.persistence.x.url", null, "A URL.").redacted();
        assertThat(url.show("jdbc:postgresql://h/x?sslpassword=" + SECRET + "&user=u"))
                .doesNotContain(SECRET);
        var strict = url.checkedBy(v -> v.startsWith("jdbc:") ? null : "a JDBC URL");
        assertThatThrownBy(() -> strict.read(ProviderConfig.of(Map.of(url.key(), "redis://:abc@def" + SECRET + "@h"))))
                .isInstanceOf(PersistenceException.class)
                .satisfies(e -> assertNowhere(e, SECRET, "abc@"));
        var config = ProviderConfig.of(Map.of(
                "agent.persistence.x.url",
                "redis://:abc@def" + SECRET + "@h",
                "agent.persistence.x.api-token",
                SECRET));
        assertThat(config.toString()).doesNotContain(SECRET).doesNotContain("abc");
    }

    @Test
    void aRedactorHidesTheSecretValuesOfItsUrlWhereverTheyAppear() {
        var redactor = Redactor.forCredentialsIn("jdbc:mariadb://app:p%40ss" + SECRET + "@h/db?apiToken=tok" + SECRET)
                .andSecret("given" + SECRET);
        assertThat(redactor.redact("Incorrect port value : p@ss" + SECRET + "@127.0.0.1"))
                .doesNotContain(SECRET);
        assertThat(redactor.redact("bad token tok" + SECRET + ", bad password given" + SECRET))
                .isEqualTo("bad token ****, bad password ****");
        assertThat(redactor.redact((String) null)).isNull();
    }

    @Test
    void aLeakingCauseChainIsReplacedWithTheStackTracesKept() throws Exception {
        String uri = "redis://:abc@def" + SECRET + "@host:6379";
        URISyntaxException parse = null;
        try {
            new URI("redis://:abc@def" + SECRET + "@host:6379/ x");
        } catch (URISyntaxException e) {
            parse = e;
        }
        assertThat(parse).isNotNull();
        var driver = new SQLException("could not connect", parse);
        driver.addSuppressed(new IllegalStateException("also " + uri));
        Throwable redacted = Redactor.forCredentialsIn(uri).redact(driver);
        assertThat(redacted).isInstanceOf(RedactedException.class).hasMessage("could not connect");
        assertThat(((RedactedException) redacted).originalType()).isEqualTo(SQLException.class.getName());
        assertThat(redacted.getStackTrace()).isEqualTo(driver.getStackTrace());
        assertThat(redacted.getCause()).isInstanceOf(RedactedException.class);
        assertThat(redacted.getCause().toString()).startsWith(URISyntaxException.class.getName());
        assertNowhere(redacted, SECRET, "abc@");

        var clean = new SQLException("Connection to 127.0.0.1:1 refused");
        assertThat(Redactor.forCredentialsIn(uri).redact(clean)).isSameAs(clean);
        assertThat(Redactor.patternsOnly().redact((Throwable) null)).isNull();
    }

    @Test
    void swappedIdAndKeyNeverShowTheKey() {
        String key = Base64.getEncoder().encodeToString(bytes(32, 7));
        String urlSafeKey = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes(32, 9));
        assertThat(EncryptionKeys.isValidKeyId(urlSafeKey))
                .as("a URL-safe key looks like an id")
                .isTrue();
        for (String spec : new String[] {
            key + ":k1",
            urlSafeKey + ":k1",
            urlSafeKey + ":" + key,
            "k1:" + key + "," + urlSafeKey + ":k2",
            "k1:" + key.substring(0, 20) + "!!" + key.substring(20),
            "k1:" + Base64.getEncoder().encodeToString(bytes(16, 1)),
            key
        }) {
            assertThatThrownBy(() -> EncryptionKeys.parse(spec, null))
                    .as(spec)
                    .isInstanceOf(PersistenceException.class)
                    .satisfies(e -> assertNowhere(e, key, urlSafeKey, key.substring(0, 20), key.substring(22)));
            assertThatThrownBy(() ->
                            CodecSettings.codec(ProviderConfig.of(Map.of(CodecSettings.ENCRYPTION_KEYS.key(), spec))))
                    .as(spec)
                    .isInstanceOf(PersistenceException.class)
                    .hasMessageContaining(CodecSettings.ENCRYPTION_KEYS.key())
                    .satisfies(e -> assertNowhere(e, key, urlSafeKey, key.substring(0, 20), key.substring(22)));
        }
        assertThatThrownBy(() -> EncryptionKeys.parse(key + ":k1", null))
                .hasMessageContaining("entry 1 of 1")
                .hasMessageContaining("swapped");
        assertThatThrownBy(() -> EncryptionKeys.parse("k1:" + key, urlSafeKey))
                .isInstanceOf(PersistenceException.class)
                .satisfies(e -> assertNowhere(e, urlSafeKey));
    }

    private static byte[] bytes(int length, int seed) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (seed * 31 + i * 17);
        }
        return bytes;
    }

    /** None of {@code secrets} in the messages, {@code toString}s or stack trace of {@code failure} and its causes. */
    static void assertNowhere(Throwable failure, String... secrets) {
        var trace = new StringWriter();
        failure.printStackTrace(new PrintWriter(trace));
        for (Throwable t = failure; t != null; t = t.getCause()) {
            trace.append('\n')
                    .append(String.valueOf(t.getMessage()))
                    .append('\n')
                    .append(t.toString());
        }
        for (String secret : secrets) {
            assertThat(trace.toString()).as("trace of %s", failure).doesNotContain(secret);
        }
    }
}
