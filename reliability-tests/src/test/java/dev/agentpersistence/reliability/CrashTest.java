package dev.agentpersistence.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.spi.PersistenceStorageProviders;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.tck.ChildJvm;
import java.io.FileOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A child JVM saving checkpoints in a loop is SIGKILLed at a random moment, round after round ({@value #BOUNDED_ROUNDS}
 * rounds per backend, {@value #LONG_ROUNDS} with {@code -Dagent.persistence.reliability.long=true}). After each kill:
 * every save the child acknowledged is readable and exact; every stored checkpoint decodes and equals what was saved
 * (nothing partial or corrupt is visible); versions have no gaps; and the backend's raw indexes hold no entry that
 * shows a checkpoint without its body. For Redis the server (AOF, {@code appendfsync always}) is SIGKILLed together
 * with the client; for S3 the child serves S3Proxy itself over a directory, so the kill takes the server down
 * mid-request too.
 */
class CrashTest {
    static final int BOUNDED_ROUNDS = 5;
    static final int LONG_ROUNDS = 60;
    private static final Duration START = Duration.ofSeconds(90);

    private final Random random = new Random();
    private Path dir;

    @BeforeEach
    void createDir() throws Exception {
        dir = Ids.scratch("crash");
    }

    @AfterEach
    void deleteDir() throws Exception {
        Ids.delete(dir);
    }

    @Test
    @Timeout(900)
    void fileJournal() throws Exception {
        Path root = dir.resolve("file");
        var settings = Map.of("agent.persistence.file.dir", root.toString());
        rounds("file journal", "file", settings, (agent, storage, stored) -> {
            Path agentDir = root.resolve(agent);
            Path journal = agentDir.resolve(".journal");
            if (!Files.exists(journal)) {
                // killed before its first save had created the journal
                assertThat(stored).as("checkpoints without a journal").isEmpty();
                return 0;
            }
            assertThat(Files.exists(agentDir.resolve(".ids")))
                    .as("an id index next to a journal")
                    .isFalse();
            JournalScan scan = JournalScan.of(journal);
            assertThat(scan.versions())
                    .as("complete records in %s", journal)
                    .containsExactlyElementsOf(
                            stored.stream().map(AgentCheckpoint::version).toList());
            int leftovers =
                    scan.tornBytes() > 0 ? 1 : 0; // a record the kill cut short: ignored, truncated by the next save
            try (Stream<Path> files = Files.list(agentDir)) {
                for (Path p : files.toList()) {
                    if (p.getFileName().toString().startsWith(".tmp-")) {
                        leftovers++;
                    }
                }
            }
            return leftovers;
        });
    }

    @Test
    @Timeout(900)
    void filePerCheckpoint() throws Exception {
        Path root = dir.resolve("file");
        var settings = Map.of("agent.persistence.file.dir", root.toString(), "agent.persistence.file.layout", "files");
        rounds("file per checkpoint", "file", settings, (agent, storage, stored) -> {
            Path agentDir = root.resolve(agent);
            if (!Files.exists(agentDir.resolve(".ids"))) {
                // killed before its first save had made the agent's directories
                assertThat(stored).as("checkpoints without an agent directory").isEmpty();
                return 0;
            }
            int leftovers = 0;
            try (Stream<Path> files = Files.list(agentDir)) {
                for (Path p : files.toList()) {
                    String name = p.getFileName().toString();
                    if (name.startsWith(".tmp-") || name.startsWith(".trash-")) {
                        leftovers++;
                    }
                }
            }
            try (Stream<Path> ids = Files.list(agentDir.resolve(".ids"))) {
                for (Path entry : ids.toList()) {
                    String id = entry.getFileName().toString();
                    long version = Long.parseLong(id.substring(3));
                    Path body = agentDir.resolve(String.format("%019d.checkpoint", version));
                    if (!Files.exists(body) || !Files.isSameFile(entry, body)) {
                        leftovers++;
                        assertThat(storage.getCheckpoint(agent, id))
                                .as("reservation %s without its body", id)
                                .isEmpty();
                    }
                }
            }
            return leftovers;
        });
    }

    @Test
    @Timeout(900)
    void sqlite() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("crash.db");
        rounds(
                "jdbc-sqlite",
                "jdbc",
                Map.of("agent.persistence.jdbc.url", url),
                (agent, storage, stored) -> jdbcIndexCheck(url, "agent_", agent, stored, true));
    }

    @Test
    @Timeout(900)
    void postgres() throws Exception {
        String url = SharedServers.postgres();
        String prefix = Backends.TABLE_PREFIX + "crash_";
        rounds(
                "jdbc-postgresql",
                "jdbc",
                Map.of(
                        "agent.persistence.jdbc.url",
                        url,
                        "agent.persistence.jdbc.table-prefix",
                        prefix,
                        "agent.persistence.jdbc.pool-size",
                        "2"),
                (agent, storage, stored) -> jdbcIndexCheck(url, prefix, agent, stored, false));
    }

    @Test
    @Timeout(900)
    void redisWithAofKilledTogetherWithTheClient() throws Exception {
        try (var server = PrivateRedis.start(dir.resolve("redis"), true)) {
            var settings =
                    Map.of("agent.persistence.redis.uri", server.uri(), "agent.persistence.redis.key-prefix", "c:");
            var killServer = new ServerKill() {
                @Override
                public void beforeClientKill() throws Exception {
                    server.kill();
                }

                @Override
                public void afterClientKill() throws Exception {
                    server.start();
                }
            };
            rounds("redis (AOF always, server killed too)", "redis", settings, killServer, (agent, storage, stored) -> {
                try (var client = RedisClient.create(java.net.URI.create(server.uri()))) {
                    String tag = "c:{"
                            + java.util.Base64.getUrlEncoder()
                                    .withoutPadding()
                                    .encodeToString(agent.getBytes(StandardCharsets.UTF_8))
                            + "}:";
                    long n = stored.size();
                    assertThat(client.zcard(tag + "v")).as("version index").isEqualTo(n);
                    assertThat(client.exists(tag + "c"))
                            .as("no creation-time index: saves since the four-structure layout keep none")
                            .isFalse();
                    assertThat(client.hlen(tag + "b")).as("bodies").isEqualTo(n);
                    assertThat(client.hlen(tag + "m")).as("attributes").isEqualTo(n);
                    assertThat(client.hlen(tag + "i")).as("id index").isEqualTo(n);
                    for (String member : client.zrange(tag + "v", 0, -1)) {
                        assertThat(client.hexists(tag + "b", member))
                                .as("body of indexed version %s", member)
                                .isTrue();
                    }
                }
                return 0;
            });
        }
    }

    @Test
    @Timeout(900)
    void s3ProxyOverADirectoryKilledWithTheClient() throws Exception {
        Path store = dir.resolve("s3");
        try (var first = LocalS3.start(store, 0)) {
            // creates the bucket directory
        }
        String agent = Ids.unique("crash");
        var target = new Target() {
            int port;
            LocalS3 verifier;

            @Override
            public Map<String, String> childSettings() {
                port = Ports.free();
                return LocalS3.settings(java.net.URI.create("http://127.0.0.1:" + port));
            }

            @Override
            public List<String> childArgs() {
                return List.of(store.toString(), Integer.toString(port));
            }

            @Override
            public int killWindowMillis() {
                return 3000;
            }

            @Override
            public PersistenceStorageProvider<CheckpointFilter> openVerifier() throws Exception {
                verifier = LocalS3.start(store, 0);
                return PersistenceStorageProviders.load("s3", ProviderConfig.of(LocalS3.settings(verifier.endpoint())));
            }

            @Override
            public void closeVerifier() throws Exception {
                verifier.close();
            }

            @Override
            public int rawCheck(
                    String agentId, PersistenceStorageProvider<CheckpointFilter> storage, List<AgentCheckpoint> stored)
                    throws Exception {
                String segment = "e" + HexFormat.of().formatHex(agentId.getBytes(StandardCharsets.UTF_8));
                int orphans = 0;
                try (var client = verifier.client()) {
                    var bodyVersions = new TreeSet<Long>();
                    for (S3Object body : list(client, "v/" + segment + "/")) {
                        String name = body.key().substring(body.key().lastIndexOf('/') + 1);
                        if (name.matches("[0-9]{19}")) {
                            bodyVersions.add(Long.MAX_VALUE - Long.parseLong(name));
                        } else {
                            // S3Proxy's file-system store writes "<key>-<uuid>" and renames it; a kill
                            // mid-PUT leaves it listed. The provider never takes it for a body.
                            orphans++;
                        }
                    }
                    assertThat(bodyVersions).as("bodies").hasSize(stored.size());
                    for (S3Object marker : list(client, "id/" + segment + "/")) {
                        if (marker.key()
                                .substring(("id/" + segment + "/").length())
                                .contains("-")) {
                            orphans++; // S3Proxy's temporary "<key>-<uuid>" of a PUT cut by the kill
                            continue;
                        }
                        String text = client.getObjectAsBytes(
                                        b -> b.bucket(LocalS3.BUCKET).key(marker.key()))
                                .asUtf8String();
                        String[] parts = text.split("\n", 3);
                        long version = Long.parseLong(parts[1]);
                        if (!bodyVersions.contains(version)) {
                            orphans++;
                            assertThat(storage.getCheckpoint(agentId, parts[2]))
                                    .as("id marker without body")
                                    .isEmpty();
                        }
                    }
                    for (S3Object index : list(client, "x/" + segment + "/")) {
                        String name = index.key().substring(("x/" + segment + "/").length());
                        if (name.matches(".*-[0-9a-f]{8}-[0-9a-f]{4}-.*")) {
                            orphans++; // S3Proxy's temporary "<key>-<uuid>"
                            continue;
                        }
                        long version = Long.MAX_VALUE - Long.parseLong(name.substring(0, 19));
                        if (!bodyVersions.contains(version)) {
                            orphans++;
                        }
                    }
                }
                return orphans;
            }
        };
        run("s3 (S3Proxy in the killed JVM)", "s3", agent, target);
    }

    private static List<S3Object> list(software.amazon.awssdk.services.s3.S3Client client, String prefix) {
        var all = new ArrayList<S3Object>();
        client.listObjectsV2Paginator(b -> b.bucket(LocalS3.BUCKET).prefix(prefix))
                .contents()
                .forEach(all::add);
        return all;
    }

    private static int jdbcIndexCheck(
            String url, String prefix, String agent, List<AgentCheckpoint> stored, boolean sqlite) throws Exception {
        try (var c = DriverManager.getConnection(url);
                var s = c.createStatement()) {
            try (var rs = s.executeQuery("SELECT count(*) FROM " + prefix + "checkpoint_metadata m LEFT JOIN " + prefix
                    + "checkpoints c ON c.agent_id = m.agent_id AND c.checkpoint_id = m.checkpoint_id"
                    + " WHERE c.checkpoint_id IS NULL")) {
                rs.next();
                assertThat(rs.getLong(1))
                        .as("metadata rows without their checkpoint row")
                        .isZero();
            }
            try (var ps = c.prepareStatement("SELECT count(*) FROM " + prefix + "checkpoints WHERE agent_id = ?")) {
                ps.setString(1, agent);
                try (var rs = ps.executeQuery()) {
                    rs.next();
                    assertThat(rs.getLong(1)).isEqualTo(stored.size());
                }
            }
            if (sqlite) {
                try (var rs = s.executeQuery("PRAGMA integrity_check")) {
                    rs.next();
                    assertThat(rs.getString(1)).isEqualTo("ok");
                }
            }
        }
        return 0;
    }

    /** What is killed besides the client, and when. */
    interface ServerKill {
        void beforeClientKill() throws Exception;

        void afterClientKill() throws Exception;
    }

    /** Raw index check; returns how many leftovers (invisible reservations, temporary files) it found. */
    interface RawCheck {
        int check(String agent, PersistenceStorageProvider<CheckpointFilter> storage, List<AgentCheckpoint> stored)
                throws Exception;
    }

    /** One backend under crash test. */
    interface Target {
        Map<String, String> childSettings();

        default List<String> childArgs() {
            return List.of();
        }

        default void beforeClientKill() throws Exception {}

        default void afterClientKill() throws Exception {}

        /** The kill lands at a random moment up to this long after the child is ready to save. */
        default int killWindowMillis() {
            return 600;
        }

        /** Whether the server dies just before the client, so the client may report it unavailable first. */
        default boolean killsServerFirst() {
            return false;
        }

        PersistenceStorageProvider<CheckpointFilter> openVerifier() throws Exception;

        default void closeVerifier() throws Exception {}

        int rawCheck(String agent, PersistenceStorageProvider<CheckpointFilter> storage, List<AgentCheckpoint> stored)
                throws Exception;
    }

    private void rounds(String label, String provider, Map<String, String> settings, RawCheck check) throws Exception {
        rounds(label, provider, settings, null, check);
    }

    private void rounds(
            String label, String provider, Map<String, String> settings, ServerKill serverKill, RawCheck check)
            throws Exception {
        run(label, provider, Ids.unique("crash"), new Target() {
            @Override
            public Map<String, String> childSettings() {
                return settings;
            }

            @Override
            public boolean killsServerFirst() {
                return serverKill != null;
            }

            @Override
            public void beforeClientKill() throws Exception {
                if (serverKill != null) {
                    serverKill.beforeClientKill();
                }
            }

            @Override
            public void afterClientKill() throws Exception {
                if (serverKill != null) {
                    serverKill.afterClientKill();
                }
            }

            @Override
            public PersistenceStorageProvider<CheckpointFilter> openVerifier() {
                return PersistenceStorageProviders.load(provider, ProviderConfig.of(settings));
            }

            @Override
            public int rawCheck(
                    String agent, PersistenceStorageProvider<CheckpointFilter> storage, List<AgentCheckpoint> stored)
                    throws Exception {
                return check.check(agent, storage, stored);
            }
        });
    }

    private void run(String label, String provider, String agent, Target target) throws Exception {
        int rounds = Scale.pick(BOUNDED_ROUNDS, LONG_ROUNDS);
        long started = System.nanoTime();
        var acked = new TreeSet<Long>();
        long unackedButStored = 0;
        long leftovers = 0;
        int stored = 0;
        for (int round = 1; round <= rounds; round++) {
            Path settingsFile = dir.resolve("settings-" + round + ".properties");
            var properties = new Properties();
            properties.putAll(target.childSettings());
            try (var out = new FileOutputStream(settingsFile.toFile())) {
                properties.store(out, null);
            }
            var args = new ArrayList<>(List.of(provider, agent, settingsFile.toString()));
            args.addAll(target.childArgs());
            ChildJvm child = ChildJvms.start(CrashChildMain.class, args.toArray(String[]::new));
            child.awaitLine("READY", START);
            Thread.sleep(random.nextInt(target.killWindowMillis()));
            target.beforeClientKill();
            child.kill();
            target.afterClientKill();
            long roundMax = -1;
            for (String line : child.lines()) {
                if (line.startsWith("ACK ")) {
                    long v = Long.parseLong(line.substring(4));
                    acked.add(v);
                    roundMax = Math.max(roundMax, v);
                } else if (line.startsWith("ERROR")
                        && !(target.killsServerFirst() && line.contains("StorageUnavailableException"))) {
                    throw new AssertionError("round " + round + ": child failed:\n" + child.output());
                }
            }
            try (var storage = target.openVerifier()) {
                List<AgentCheckpoint> all = storage.getCheckpoints(agent);
                for (int i = 0; i < all.size(); i++) {
                    assertThat(all.get(i))
                            .as("round %d: stored version %d is exactly what was saved", round, i)
                            .isEqualTo(Samples.of(agent, i));
                }
                long max = all.isEmpty() ? -1 : all.get(all.size() - 1).version();
                assertThat(acked)
                        .as("round %d: every acknowledged save is stored", round)
                        .allMatch(v -> v <= max);
                for (long v = Math.max(0, roundMax - 2); v <= roundMax; v++) {
                    assertThat(storage.getCheckpoint(agent, Samples.idOf(v)))
                            .as("round %d: lookup of acked v%d", round, v)
                            .contains(Samples.of(agent, v));
                }
                // A server may still commit a statement the killed client had sent (never acknowledged):
                // it can appear between two reads, but only whole and exact.
                var latest = storage.getLatestCheckpoint(agent);
                if (latest.isPresent()) {
                    assertThat(latest.get().version())
                            .as("round %d: latest", round)
                            .isGreaterThanOrEqualTo(max);
                    assertThat(latest.get())
                            .isEqualTo(Samples.of(agent, latest.get().version()));
                } else {
                    assertThat(all)
                            .as("round %d: no latest, so nothing stored", round)
                            .isEmpty();
                }
                if (max > roundMax && roundMax >= 0) {
                    unackedButStored += max - roundMax;
                }
                leftovers = target.rawCheck(agent, storage, all);
                stored = all.size();
            } finally {
                target.closeVerifier();
            }
        }
        try (var storage = target.openVerifier()) {
            storage.deleteCheckpoints(agent);
        } finally {
            target.closeVerifier();
        }
        Figures.record(
                "crash (SIGKILL)",
                label,
                rounds + " rounds, " + acked.size() + " acknowledged saves all "
                        + "readable and exact, " + stored + " checkpoints verified after the last round, "
                        + unackedButStored
                        + " saves stored but killed before their ack, " + leftovers
                        + " invisible leftovers after the last round "
                        + "(reservations, temporary files, orphan index entries), 0 corrupt; "
                        + (System.nanoTime() - started) / 1_000_000 + " ms");
    }
}
