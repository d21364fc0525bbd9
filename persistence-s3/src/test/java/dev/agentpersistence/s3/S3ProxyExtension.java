package dev.agentpersistence.s3;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One S3Proxy server for the tests of a class: registered as a static field with {@code @RegisterExtension}, started
 * before the class's {@code @BeforeAll} methods and closed after them.
 */
final class S3ProxyExtension implements BeforeAllCallback, AfterAllCallback {
    private S3ProxyServer server;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        server = S3ProxyServer.start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        server.close();
    }

    /** The running server. */
    S3ProxyServer server() {
        return server;
    }
}
