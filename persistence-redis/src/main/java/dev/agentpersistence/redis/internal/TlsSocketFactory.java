package dev.agentpersistence.redis.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * TLS over the connections Jedis opens, with the JVM's trust store and host name verification, that shakes hands as
 * soon as a socket is layered over the connected one, each read of the handshake waiting at most the connect timeout:
 * the handshake counts as connecting.
 *
 * <p>Left to itself the handshake happens inside the first command, where Jedis's protocol negotiation waits for it
 * with the socket timeout and tries again, so {@code rediss://} pointed at a plain-text server (which waits silently
 * for the end of a command) took several socket timeouts to fail with "Read timed out". A failed handshake is a
 * {@link TlsHandshakeException} saying that TLS is probably not enabled on the server.
 */
final class TlsSocketFactory extends SSLSocketFactory {
    private final SSLSocketFactory delegate;
    private final int handshakeTimeoutMillis;

    private TlsSocketFactory(SSLSocketFactory delegate, int handshakeTimeoutMillis) {
        this.delegate = delegate;
        this.handshakeTimeoutMillis = handshakeTimeoutMillis;
    }

    /** Over the JVM's default TLS context; each handshake read waits at most {@code handshakeTimeout}. */
    static TlsSocketFactory withDefaultTrust(Duration handshakeTimeout) {
        try {
            return new TlsSocketFactory(SSLContext.getDefault().getSocketFactory(), (int)
                    Math.min(Integer.MAX_VALUE, Math.max(1, handshakeTimeout.toMillis())));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("The JVM has no default TLS context", e);
        }
    }

    /** Parameters that verify the server's host name against its certificate. */
    static SSLParameters verifyingHostNames() {
        var parameters = new SSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        return parameters;
    }

    /** The one Jedis uses: TLS over its connected socket, handshake done before it is returned. */
    @Override
    public Socket createSocket(Socket connected, String host, int port, boolean autoClose) throws IOException {
        var socket = (SSLSocket) delegate.createSocket(connected, host, port, autoClose);
        try {
            socket.setSSLParameters(verifyingHostNames());
            int socketTimeout = connected.getSoTimeout();
            socket.setSoTimeout(handshakeTimeoutMillis);
            socket.startHandshake();
            socket.setSoTimeout(socketTimeout);
            return socket;
        } catch (IOException e) {
            closeQuietly(socket);
            throw new TlsHandshakeException(host + ":" + port, e);
        }
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return delegate.createSocket(host, port);
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return delegate.createSocket(host, port, localHost, localPort);
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return delegate.createSocket(host, port);
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        return delegate.createSocket(address, port, localAddress, localPort);
    }

    @Override
    public String[] getDefaultCipherSuites() {
        return delegate.getDefaultCipherSuites();
    }

    @Override
    public String[] getSupportedCipherSuites() {
        return delegate.getSupportedCipherSuites();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // the handshake's failure is what matters
        }
    }

    /** A TLS handshake that failed or got no answer; the message says what to check. */
    static final class TlsHandshakeException extends SSLException {
        TlsHandshakeException(String hostAndPort, IOException cause) {
            super(
                    "TLS handshake with " + hostAndPort + " failed — is TLS enabled on the server? (" + cause + ")",
                    cause);
        }
    }
}
