package dev.agentpersistence.reliability;

/** A database server of these tests' own, on a free loopback port, that a test may stop and start again. */
interface PrivateServer extends AutoCloseable {

    /** Provider settings for this server. */
    java.util.Map<String, String> settings();

    /** Stops the server abruptly (crash-like), keeping its data directory. */
    void stop() throws Exception;

    /** Starts it again over the same data, on the same port, and waits until it answers. */
    void start() throws Exception;

    /** How it was stopped, for the report. */
    String mechanism();
}
