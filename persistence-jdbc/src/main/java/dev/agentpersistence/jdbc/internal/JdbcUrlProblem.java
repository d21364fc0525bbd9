package dev.agentpersistence.jdbc.internal;

import java.util.Optional;

/**
 * Says where a server JDBC URL ({@code jdbc:<name>://host[:port][,host[:port]]/database...}) is malformed, for a
 * message when the driver on the class path refuses it. Names hosts and ports only, never the user information.
 */
final class JdbcUrlProblem {
    private static final int MAX_PORT = 65535;

    private JdbcUrlProblem() {}

    /**
     * What is wrong with the host and port part of {@code url}, with its character position; empty when it looks fine.
     */
    static Optional<String> find(String url) {
        int slashes = url.indexOf("://");
        if (slashes < 0) {
            return Optional.empty();
        }
        int start = slashes + 3;
        int end = start;
        while (end < url.length() && "/?;".indexOf(url.charAt(end)) < 0) {
            end++;
        }
        String authority = url.substring(start, end);
        int at = authority.lastIndexOf('@');
        int offset = start + at + 1;
        String hosts = authority.substring(at + 1);
        if (hosts.isEmpty()) {
            return Optional.of("no host after '" + url.substring(0, start) + "' (character " + (start + 1) + ")");
        }
        int position = offset;
        for (String host : hosts.split(",", -1)) {
            Optional<String> problem = hostProblem(host, position);
            if (problem.isPresent()) {
                return problem;
            }
            position += host.length() + 1;
        }
        return Optional.empty();
    }

    private static Optional<String> hostProblem(String host, int position) {
        if (host.isEmpty()) {
            return Optional.of("an empty host name at character " + (position + 1));
        }
        int colon = host.startsWith("[") ? host.indexOf(':', Math.max(0, host.indexOf(']'))) : host.lastIndexOf(':');
        if (colon < 0) {
            return Optional.empty();
        }
        String name = host.substring(0, colon);
        String port = host.substring(colon + 1);
        int at = position + colon + 2;
        if (port.isEmpty()) {
            return Optional.of("the port after host '" + name + "' is empty (character " + at + ")");
        }
        if (!port.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Optional.of(
                    "the port '" + port + "' after host '" + name + "' is not a number (character " + at + ")");
        }
        if (port.length() > 5 || Integer.parseInt(port) > MAX_PORT) {
            return Optional.of(
                    "the port " + port + " after host '" + name + "' is above " + MAX_PORT + " (character " + at + ")");
        }
        return Optional.empty();
    }
}
