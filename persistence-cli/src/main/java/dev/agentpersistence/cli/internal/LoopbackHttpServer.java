package dev.agentpersistence.cli.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A small HTTP/1.1 server on the loopback address for the inspector: one request per connection ({@code Connection:
 * close}), read by a bounded pool of workers, each request head read within a deadline and a size bound, so a client
 * that sends half a request, or sends it byte by byte, holds one worker for at most the deadline and never the others.
 * Connections beyond the pool and its queue are answered 503 at once.
 */
final class LoopbackHttpServer implements AutoCloseable {
    /** A request: its method, its target as sent (path and raw query), and its headers by lower-case name. */
    record Request(String method, String target, Map<String, String> headers) {
        /** The header's value, or {@code null}. */
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** A response: status, headers and body. */
    record Response(int status, Map<String, String> headers, byte[] body) {}

    private static final int MAX_HEAD = 16 * 1024;

    private final ServerSocket socket;
    private final ThreadPoolExecutor workers;
    private final Function<Request, Response> handler;
    private final Duration deadline;
    private final Thread acceptor;

    private LoopbackHttpServer(
            ServerSocket socket, int workers, Duration deadline, Function<Request, Response> handler) {
        this.socket = socket;
        this.handler = handler;
        this.deadline = deadline;
        this.workers = new ThreadPoolExecutor(
                workers, workers, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(4 * workers), runnable -> {
                    Thread thread = new Thread(runnable, "inspector-worker");
                    thread.setDaemon(true);
                    return thread;
                });
        this.workers.allowCoreThreadTimeOut(true);
        this.acceptor = new Thread(this::accept, "inspector-accept");
        this.acceptor.setDaemon(true);
    }

    /**
     * Listens on 127.0.0.1:{@code port} (0: any free port) with {@code workers} workers, each request head to be read
     * within {@code deadline}.
     */
    static LoopbackHttpServer start(int port, int workers, Duration deadline, Function<Request, Response> handler)
            throws IOException {
        Objects.requireNonNull(handler, "handler");
        var socket = new ServerSocket();
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
        var server = new LoopbackHttpServer(socket, workers, deadline, handler);
        server.acceptor.start();
        return server;
    }

    /** The port listened on. */
    int port() {
        return socket.getLocalPort();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing: nothing left to do
        }
        workers.shutdownNow();
    }

    private void accept() {
        while (!socket.isClosed()) {
            Socket connection;
            try {
                connection = socket.accept();
            } catch (IOException e) {
                return;
            }
            try {
                workers.execute(() -> serve(connection));
            } catch (RejectedExecutionException e) {
                answerBusy(connection);
            }
        }
    }

    private void serve(Socket connection) {
        try (connection) {
            long end = System.nanoTime() + deadline.toNanos();
            Request request = readHead(connection, end);
            if (request == null) {
                return;
            }
            connection.setSoTimeout((int) Math.max(1, deadline.toMillis()));
            write(connection.getOutputStream(), handler.apply(request));
        } catch (SocketTimeoutException | SocketException e) {
            // the client was too slow or went away: its connection is closed
        } catch (IOException | RuntimeException e) {
            // one connection failed; the server goes on
        }
    }

    private void answerBusy(Socket connection) {
        try (connection) {
            connection.setSoTimeout(1000);
            byte[] body = "{\"error\":\"busy: try again\"}".getBytes(StandardCharsets.UTF_8);
            write(connection.getOutputStream(), new Response(503, Map.of("Content-Type", "application/json"), body));
        } catch (IOException e) {
            // the client went away
        }
    }

    /** The request head, or {@code null} when the client sent nothing; a slow or oversized head ends in an error. */
    private static Request readHead(Socket connection, long end) throws IOException {
        InputStream in = connection.getInputStream();
        var head = new StringBuilder();
        while (!endsWithBlankLine(head)) {
            long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
            if (left <= 0) {
                throw new SocketTimeoutException("request head not complete within the deadline");
            }
            connection.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
            int b = in.read();
            if (b < 0) {
                if (head.length() == 0) {
                    return null;
                }
                throw new SocketException("connection closed within the request head");
            }
            if (head.length() >= MAX_HEAD) {
                throw new SocketException("request head longer than " + MAX_HEAD + " bytes");
            }
            head.append((char) b);
        }
        String[] lines = head.toString().split("\r?\n");
        String[] requestLine = lines[0].split(" ");
        if (requestLine.length != 3) {
            throw new SocketException("malformed request line");
        }
        var headers = new LinkedHashMap<String, String>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.putIfAbsent(
                        lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).strip());
            }
        }
        return new Request(requestLine[0], requestLine[1], Map.copyOf(headers));
    }

    private static boolean endsWithBlankLine(StringBuilder head) {
        int n = head.length();
        return n >= 2
                && head.charAt(n - 1) == '\n'
                && (head.charAt(n - 2) == '\n'
                        || n >= 4
                                && head.charAt(n - 2) == '\r'
                                && head.charAt(n - 3) == '\n'
                                && head.charAt(n - 4) == '\r');
    }

    private static void write(OutputStream out, Response response) throws IOException {
        var head = new StringBuilder("HTTP/1.1 ")
                .append(response.status())
                .append(' ')
                .append(reason(response.status()))
                .append("\r\n");
        response.headers()
                .forEach((name, value) ->
                        head.append(name).append(": ").append(value).append("\r\n"));
        head.append("Content-Length: ").append(response.body().length).append("\r\n");
        head.append("Connection: close\r\n\r\n");
        out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.write(response.body());
        out.flush();
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 503 -> "Service Unavailable";
            default -> "Error";
        };
    }
}
