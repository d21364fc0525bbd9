package dev.agentpersistence.reliability;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.Base64;
import java.util.HexFormat;
import redis.clients.jedis.RedisClient;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Direct access to the bytes a provider stored for one checkpoint, bypassing the provider, to inspect or corrupt them.
 * Agent ids used with it are plain ({@code a-z 0-9 -}), so the layouts' encodings stay simple.
 */
interface RawStore extends AutoCloseable {

    /** The stored document of {@code version}. */
    byte[] read(String agentId, long version) throws Exception;

    /** Replaces the stored document of {@code version}. */
    void write(String agentId, long version, byte[] stored) throws Exception;

    /** Where the document lives, as the provider names it in errors (a substring of its location). */
    String locationHint(String agentId, long version);

    @Override
    default void close() throws Exception {}

    /**
     * persistence-file, an agent kept as a journal: the document in the record of the version in
     * {@code <root>/<agent>/.journal}; a write replaces the journal with a new generation.
     */
    static RawStore fileJournal(Path root) {
        return new RawStore() {
            Path journal(String agentId) {
                return root.resolve(agentId).resolve(".journal");
            }

            @Override
            public byte[] read(String agentId, long version) throws Exception {
                return JournalScan.of(journal(agentId)).document(version);
            }

            @Override
            public void write(String agentId, long version, byte[] stored) throws Exception {
                JournalScan.of(journal(agentId)).rewrite(journal(agentId), version, stored);
            }

            @Override
            public String locationHint(String agentId, long version) {
                return journal(agentId).toString();
            }
        };
    }

    /**
     * persistence-file, an agent kept as one file per checkpoint: {@code <root>/<agent>/<19-digit version>.checkpoint}.
     */
    static RawStore file(Path root) {
        return new RawStore() {
            Path path(String agentId, long version) {
                return root.resolve(agentId).resolve(String.format("%019d.checkpoint", version));
            }

            @Override
            public byte[] read(String agentId, long version) throws Exception {
                return Files.readAllBytes(path(agentId, version));
            }

            @Override
            public void write(String agentId, long version, byte[] stored) throws Exception {
                Files.write(path(agentId, version), stored);
            }

            @Override
            public String locationHint(String agentId, long version) {
                return root.resolve(agentId).toString();
            }
        };
    }

    /** persistence-jdbc: the {@code payload} column of {@code <prefix>checkpoints}. */
    static RawStore jdbc(String url, String tablePrefix) {
        String table = tablePrefix + "checkpoints";
        return new RawStore() {
            @Override
            public byte[] read(String agentId, long version) throws Exception {
                try (var c = DriverManager.getConnection(url);
                        var s = c.prepareStatement(
                                "SELECT payload FROM " + table + " WHERE agent_id = ? AND version = ?")) {
                    s.setString(1, agentId);
                    s.setLong(2, version);
                    try (var rs = s.executeQuery()) {
                        if (!rs.next()) {
                            throw new AssertionError("no row for " + agentId + " v" + version);
                        }
                        return rs.getBytes(1);
                    }
                }
            }

            @Override
            public void write(String agentId, long version, byte[] stored) throws Exception {
                try (var c = DriverManager.getConnection(url);
                        var s = c.prepareStatement(
                                "UPDATE " + table + " SET payload = ? WHERE agent_id = ? AND version = ?")) {
                    s.setBytes(1, stored);
                    s.setString(2, agentId);
                    s.setLong(3, version);
                    if (s.executeUpdate() != 1) {
                        throw new AssertionError("no row updated for " + agentId + " v" + version);
                    }
                }
            }

            @Override
            public String locationHint(String agentId, long version) {
                return table;
            }
        };
    }

    /** persistence-redis: field {@code <19-digit version>} of hash {@code <prefix>{base64url(agent)}:b}. */
    static RawStore redis(String uri, String keyPrefix) {
        var client = RedisClient.create(java.net.URI.create(uri));
        return new RawStore() {
            byte[] key(String agentId) {
                String tag = Base64.getUrlEncoder()
                        .withoutPadding()
                        .encodeToString(agentId.getBytes(StandardCharsets.UTF_8));
                return (keyPrefix + "{" + tag + "}:b").getBytes(StandardCharsets.UTF_8);
            }

            byte[] field(long version) {
                return String.format("%019d", version).getBytes(StandardCharsets.US_ASCII);
            }

            @Override
            public byte[] read(String agentId, long version) {
                return client.hget(key(agentId), field(version));
            }

            @Override
            public void write(String agentId, long version, byte[] stored) {
                client.hset(key(agentId), field(version), stored);
            }

            @Override
            public String locationHint(String agentId, long version) {
                return ":b";
            }

            @Override
            public void close() {
                client.close();
            }
        };
    }

    /** persistence-s3: object {@code v/e<hex agent>/<19-digit Long.MAX_VALUE - version>}. */
    static RawStore s3(S3Client client, String bucket) {
        return new RawStore() {
            String key(String agentId, long version) {
                return "v/e" + HexFormat.of().formatHex(agentId.getBytes(StandardCharsets.UTF_8)) + "/"
                        + String.format("%019d", Long.MAX_VALUE - version);
            }

            @Override
            public byte[] read(String agentId, long version) {
                return client.getObjectAsBytes(b -> b.bucket(bucket).key(key(agentId, version)))
                        .asByteArray();
            }

            @Override
            public void write(String agentId, long version, byte[] stored) {
                client.putObject(b -> b.bucket(bucket).key(key(agentId, version)), RequestBody.fromBytes(stored));
            }

            @Override
            public String locationHint(String agentId, long version) {
                return key(agentId, version);
            }

            @Override
            public void close() {
                client.close();
            }
        };
    }
}
