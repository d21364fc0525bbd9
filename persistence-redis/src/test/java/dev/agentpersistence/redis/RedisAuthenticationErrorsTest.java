package dev.agentpersistence.redis;

import static dev.agentpersistence.tck.SecretAssertions.assertNowhere;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.agentpersistence.StorageAuthenticationException;
import dev.agentpersistence.StorageConfigurationException;
import java.net.URI;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * Credentials a real Redis refuses ({@code WRONGPASS} for a wrong password or an unknown or disabled ACL user) are a
 * {@link StorageAuthenticationException} raised at once, with the server's reply first and the password hidden. The
 * test creates its own ACL user on the shared server and deletes it afterwards.
 */
class RedisAuthenticationErrorsTest {
    private static final long AT_ONCE_MILLIS = 2_500;
    private static final String RIGHT_PASSWORD = "R1ght-Pa55-" + suffix();
    private static final String WRONG_PASSWORD = "Wr0ng-Pa55-" + suffix();

    @Test
    void aWrongPasswordIsRefusedCredentialsAtOnce() {
        String user = "ap-test-" + suffix();
        try (var admin = SharedRedis.connect(SharedRedis.uri())) {
            admin.aclSetUser(user, "on", ">" + RIGHT_PASSWORD, "~*", "+@all");
            try {
                var failure = firstOperationFails(uriFor(user, WRONG_PASSWORD));

                assertThat(failure)
                        .isInstanceOf(StorageAuthenticationException.class)
                        .hasMessageStartingWith("WRONGPASS")
                        .hasMessageContaining("a retry does not help");
                assertNowhere(failure, WRONG_PASSWORD, RIGHT_PASSWORD);
            } finally {
                admin.aclDelUser(user);
            }
        }
    }

    @Test
    void anUnknownUserIsRefusedCredentialsAtOnce() {
        var failure = firstOperationFails(uriFor("no-such-user-" + suffix(), WRONG_PASSWORD));

        assertThat(failure)
                .isInstanceOf(StorageConfigurationException.class)
                .isInstanceOf(StorageAuthenticationException.class)
                .hasMessageStartingWith("WRONGPASS");
        assertNowhere(failure, WRONG_PASSWORD);
    }

    @Test
    void aUserWithoutPermissionIsRefusedAtOnce() {
        String user = "ap-test-" + suffix();
        try (var admin = SharedRedis.connect(SharedRedis.uri())) {
            admin.aclSetUser(user, "on", ">" + RIGHT_PASSWORD, "~*", "-@all", "+ping", "+hello", "+client");
            try {
                var failure = firstOperationFails(uriFor(user, RIGHT_PASSWORD));

                assertThat(failure)
                        .isInstanceOf(StorageAuthenticationException.class)
                        .hasMessageStartingWith("NOPERM");
                assertNowhere(failure, RIGHT_PASSWORD);
            } finally {
                admin.aclDelUser(user);
            }
        }
    }

    private static String uriFor(String user, String password) {
        URI shared = URI.create(SharedRedis.uri());
        return "redis://" + user + ":" + password + "@" + shared.getHost() + ":" + shared.getPort();
    }

    private static Throwable firstOperationFails(String uri) {
        var config = RedisStorageConfig.custom()
                .uri(uri)
                .keyPrefix(SharedRedis.uniquePrefix())
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        try (var provider = RedisStorage.builder(config).build()) {
            long start = System.nanoTime();
            Throwable failure = catchThrowable(() -> provider.getLatestCheckpoint("agent"));
            assertThat(Duration.ofNanos(System.nanoTime() - start).toMillis()).isLessThan(AT_ONCE_MILLIS);
            assertThat(failure).isNotNull();
            assertThat(provider.toString()).doesNotContain(uri.substring(uri.indexOf(':', 8) + 1, uri.indexOf('@')));
            return failure;
        }
    }

    private static String suffix() {
        byte[] bytes = new byte[4];
        ThreadLocalRandom.current().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
