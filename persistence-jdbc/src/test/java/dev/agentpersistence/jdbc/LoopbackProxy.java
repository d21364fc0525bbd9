package dev.agentpersistence.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP forwarder on 127.0.0.1 in front of a database server, which a test can {@link #cut()} and {@link #restore()}: a
 * real outage of the path to the server, without stopping the shared server.
 */
final class LoopbackProxy implements AutoCloseable {
    private final InetSocketAddress target;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final int port;
    private ServerSocket server;

    private LoopbackProxy(InetSocketAddress target) throws IOException {
        this.target = target;
        this.server = bind(0);
        this.port = server.getLocalPort();
        acceptOn(server);
    }

    /** A proxy in front of the host and port of a JDBC URL such as {@code jdbc:postgresql://127.0.0.1:5432/test}. */
    static LoopbackProxy inFrontOf(String jdbcUrl) throws IOException {
        URI uri = URI.create(jdbcUrl.substring("jdbc:".length()));
        return new LoopbackProxy(new InetSocketAddress(uri.getHost(), uri.getPort()));
    }

    /** {@code jdbcUrl} with its host and port replaced by this proxy's. */
    String route(String jdbcUrl) {
        URI uri = URI.create(jdbcUrl.substring("jdbc:".length()));
        return jdbcUrl.replace("//" + uri.getRawAuthority(), "//127.0.0.1:" + port);
    }

    int port() {
        return port;
    }

    /** Refuses new connections and breaks every open one. */
    synchronized void cut() throws IOException {
        if (server != null) {
            server.close();
            server = null;
        }
        for (Socket socket : sockets) {
            socket.close();
        }
        sockets.clear();
    }

    /** Accepts connections on the same port again. */
    synchronized void restore() throws IOException {
        if (server == null) {
            server = bind(port);
            acceptOn(server);
        }
    }

    @Override
    public void close() throws IOException {
        cut();
    }

    private static ServerSocket bind(int port) throws IOException {
        var socket = new ServerSocket();
        socket.setReuseAddress(true);
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        return socket;
    }

    private void acceptOn(ServerSocket listening) {
        daemon("proxy-accept-" + port, () -> {
            while (!listening.isClosed()) {
                try {
                    Socket client = listening.accept();
                    Socket upstream = new Socket();
                    try {
                        upstream.connect(target, 2000);
                    } catch (IOException e) {
                        client.close();
                        continue;
                    }
                    synchronized (LoopbackProxy.this) {
                        if (server != listening) {
                            // cut() ran while this connection was being set up: it must not survive the cut
                            client.close();
                            upstream.close();
                            continue;
                        }
                        sockets.add(client);
                        sockets.add(upstream);
                    }
                    daemon("proxy-up-" + port, () -> pump(client, upstream));
                    daemon("proxy-down-" + port, () -> pump(upstream, client));
                } catch (IOException e) {
                    // the listening socket was closed by cut()
                }
            }
        });
    }

    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // one side closed
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private void closeQuietly(Socket socket) {
        sockets.remove(socket);
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    private static void daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
    }
}
