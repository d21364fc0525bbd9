package dev.agentpersistence.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.s3.internal.IdMarker;
import dev.agentpersistence.s3.internal.IndexEntry;
import dev.agentpersistence.s3.internal.KeyLayout;
import dev.agentpersistence.s3.internal.KeyParts;
import dev.agentpersistence.s3.internal.TestRecords;
import dev.agentpersistence.storage.StorageShell;
import dev.agentpersistence.tck.Checkpoints;
import dev.agentpersistence.tck.HostileIds;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.S3Object;

/** What the kit cannot see: the key layout, what each query costs in requests, gzip, size, leftovers of crashes. */
class S3StorageProviderTest {
    private static final String PREFIX = "app/checkpoints";
    private static final KeyLayout LAYOUT = new KeyLayout(PREFIX);

    @RegisterExtension
    static final S3ProxyExtension S3 = new S3ProxyExtension();

    @RegisterExtension
    final LoggedBucket s3 = new LoggedBucket(S3);

    private StorageShell provider;

    @BeforeEach
    void setUp() {
        provider = s3.open(PREFIX);
    }

    private StorageShell open(S3StorageConfig config) {
        return s3.open(config);
    }

    private List<String> keys() {
        return S3.server().admin().listObjectsV2Paginator(b -> b.bucket(s3.bucket())).contents().stream()
                .map(S3Object::key)
                .toList();
    }

    private void saveAll(String agent, int count) {
        for (int v = 0; v < count; v++) {
            provider.saveCheckpoint(
                    agent,
                    Checkpoints.builder(agent, v)
                            .nodeId(v % 10 == 9 ? "rare" : "common")
                            .build());
        }
        s3.log().take();
    }

    @Test
    void keysFollowTheDocumentedLayout() {
        var checkpoint = Checkpoints.simple("agent-1", 7);
        provider.saveCheckpoint("agent-1", checkpoint);
        String agent = KeyParts.encode("agent-1");
        assertThat(agent).isEqualTo("e6167656e742d31");
        assertThat(keys())
                .containsExactlyInAnyOrder(
                        PREFIX + "/v/" + agent + "/9223372036854775800",
                        PREFIX + "/id/" + agent + "/" + KeyParts.encode("cp-7"),
                        PREFIX + "/x/" + agent + "/"
                                + IndexEntry.of(TestRecords.stored(checkpoint)).leaf() + "/" + KeyParts.encode("cp-7"),
                        PREFIX + "/l/" + agent);
        assertThat(S3.server()
                        .admin()
                        .getObjectAsBytes(b -> b.bucket(s3.bucket()).key(PREFIX + "/l/" + agent))
                        .asUtf8String())
                .isEqualTo("1\n7");
        // marker, index entry, pointer (absent: created from the newest listed body), body, pointer checked again
        assertThat(s3.log().take())
                .containsExactly(
                        "PutObject", "PutObject", "GetObject", "ListObjectsV2", "PutObject", "PutObject", "GetObject");
        // the next save raises the pointer on the ETag read at the end of the previous one
        provider.saveCheckpoint("agent-1", Checkpoints.simple("agent-1", 8));
        assertThat(s3.log().take()).containsExactly("PutObject", "PutObject", "PutObject", "PutObject", "GetObject");
        // moved by another writer meanwhile (to a version being saved): the refused PUT, then a read
        S3.server()
                .admin()
                .putObject(b -> b.bucket(s3.bucket()).key(PREFIX + "/l/" + agent), RequestBody.fromString("1\n20"));
        provider.saveCheckpoint("agent-1", Checkpoints.simple("agent-1", 9));
        assertThat(s3.log().take())
                .containsExactly("PutObject", "PutObject", "PutObject", "GetObject", "PutObject", "GetObject");
    }

    @Test
    void hostileIdsBecomeHexOrDigestSegmentsAndReadBack() {
        var safe = Pattern.compile("[a-z0-9./~]+");
        for (String id : HostileIds.valid()) {
            var checkpoint = Checkpoints.builder(id, 0).checkpointId(id).build();
            provider.saveCheckpoint(id, checkpoint);
            assertThat(provider.getCheckpoint(id, id)).as(id).contains(checkpoint);
        }
        for (String key : keys()) {
            String rest = key.substring(PREFIX.length() + 1);
            assertThat(rest).as(key).matches(safe);
            for (String segment : rest.split("/")) {
                assertThat(segment.length()).as("segment of %s", key).isLessThanOrEqualTo(255);
            }
        }
        assertThat(provider.listAgents()).containsExactlyInAnyOrderElementsOf(HostileIds.valid());
    }

    @Test
    void latestIsTwoGetsAndBelowTheNewestOneListingOfOneKeyPlusOneGet() {
        saveAll("agent", 40);
        assertThat(provider.getLatestCheckpoint("agent"))
                .map(AgentCheckpoint::version)
                .contains(39L);
        assertThat(s3.log().take()).containsExactly("GetObject", "GetObject");
        assertThat(provider.getLatestCheckpoint(
                        "agent", CheckpointFilter.builder().maxVersion(39L).build()))
                .map(AgentCheckpoint::version)
                .contains(39L);
        assertThat(s3.log().take()).containsExactly("GetObject", "GetObject");
        assertThat(provider.getLatestCheckpoint(
                        "agent", CheckpointFilter.builder().maxVersion(12L).build()))
                .map(AgentCheckpoint::version)
                .contains(12L);
        assertThat(s3.log().take()).containsExactly("GetObject", "ListObjectsV2", "GetObject");
    }

    @Test
    void lookupByIdIsTwoGetsWithoutListing() {
        saveAll("agent", 30);
        assertThat(provider.getCheckpoint("agent", "cp-3"))
                .map(AgentCheckpoint::version)
                .contains(3L);
        assertThat(s3.log().take()).containsExactly("GetObject", "GetObject");
        assertThat(provider.getCheckpoint("agent", "missing")).isEmpty();
        assertThat(s3.log().take()).containsExactly("GetObject");
    }

    @Test
    void filtersReadOnlyTheBodiesOfCandidates() {
        saveAll("agent", 60);
        var rare = provider.getCheckpoints(
                "agent", CheckpointFilter.builder().nodeId("rare").limit(2).build());
        assertThat(rare).extracting(AgentCheckpoint::version).containsExactly(49L, 59L);
        assertThat(s3.log().take()).containsExactly("ListObjectsV2", "GetObject", "GetObject");

        var window = provider.getCheckpoints(
                "agent",
                CheckpointFilter.builder()
                        .createdAfter(Checkpoints.createdAt(10))
                        .createdBefore(Checkpoints.createdAt(13))
                        .build());
        assertThat(window).extracting(AgentCheckpoint::version).containsExactly(10L, 11L, 12L);
        assertThat(s3.log().take()).containsExactly("ListObjectsV2", "GetObject", "GetObject", "GetObject");

        var none = provider.getCheckpoints(
                "agent", CheckpointFilter.builder().metadata("absent", "x").build());
        assertThat(none).isEmpty();
        assertThat(s3.log().take()).containsExactly("ListObjectsV2");

        var limited = provider.getCheckpoints(
                "agent", CheckpointFilter.builder().maxVersion(30L).limit(3).build());
        assertThat(limited).extracting(AgentCheckpoint::version).containsExactly(28L, 29L, 30L);
        assertThat(s3.log().take()).containsExactly("ListObjectsV2", "GetObject", "GetObject", "GetObject");
    }

    @Test
    void listingsPaginatePastOneThousandObjects() throws Exception {
        String agentId = "many";
        String agent = KeyParts.encode(agentId);
        int count = 1_005;
        CheckpointCodec codec = CheckpointCodec.json();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            var writes = new ArrayList<Future<?>>();
            for (int v = 0; v < count; v++) {
                var checkpoint = Checkpoints.builder(agentId, v)
                        .nodeId(v == 3 ? "first" : "other")
                        .build();
                writes.add(pool.submit(() -> {
                    put(LAYOUT.bodyKey(agent, checkpoint.version()), codec.encode(checkpoint));
                    put(LAYOUT.indexKey(agent, IndexEntry.of(TestRecords.stored(checkpoint))), IndexEntry.CONTENT);
                }));
            }
            for (var write : writes) {
                write.get();
            }
        } finally {
            pool.shutdown();
        }
        s3.log().take();

        var first = provider.getCheckpoints(
                agentId, CheckpointFilter.builder().nodeId("first").build());
        assertThat(first).extracting(AgentCheckpoint::version).containsExactly(3L);
        assertThat(s3.log().take()).containsExactly("ListObjectsV2", "ListObjectsV2", "GetObject");

        assertThat(provider.getCheckpoints(
                        agentId, CheckpointFilter.builder().maxVersion(0L).build()))
                .extracting(AgentCheckpoint::version)
                .containsExactly(0L);

        assertThat(provider.deleteCheckpointsBefore(agentId, count - 1)).isEqualTo(count - 1);
        assertThat(provider.getCheckpoints(agentId))
                .extracting(AgentCheckpoint::version)
                .containsExactly(count - 1L);
        assertThat(keys()).hasSize(2);
        assertThat(provider.deleteCheckpoints(agentId)).isEqualTo(1);
        assertThat(keys()).isEmpty();
    }

    private void put(String key, byte[] bytes) {
        S3.server().admin().putObject(b -> b.bucket(s3.bucket()).key(key), RequestBody.fromBytes(bytes));
    }

    @Test
    void gzipBodiesAreMarkedAndReadByAnyProvider() {
        var zipped =
                open(S3.server().config(s3.bucket()).prefix(PREFIX).gzip(true).build());
        var checkpoint = Checkpoints.full("agent", 0);
        zipped.saveCheckpoint("agent", checkpoint);
        String key = LAYOUT.bodyKey(KeyParts.encode("agent"), 0);
        var stored =
                S3.server().admin().getObjectAsBytes(b -> b.bucket(s3.bucket()).key(key));
        assertThat(stored.response().metadata()).containsEntry("checkpoint-encoding", "gzip");
        assertThat(stored.asByteArray()).startsWith((byte) 0x1f, (byte) 0x8b);
        assertThat(stored.asByteArray().length)
                .isLessThan(CheckpointCodec.json().encode(checkpoint).length);

        assertThat(provider.getLatestCheckpoint("agent")).contains(checkpoint);
        provider.saveCheckpoint("agent", checkpoint); // identical re-save through a provider without gzip
        assertThat(zipped.getCheckpoints("agent")).containsExactly(checkpoint);
    }

    @Test
    void twentyMebibyteCheckpointsRoundTripPlainAndCompressed() {
        var state = new java.util.TreeMap<String, com.fasterxml.jackson.databind.JsonNode>();
        var mebibyte =
                com.fasterxml.jackson.databind.node.TextNode.valueOf("0123456789abcdef".repeat(1024 * 1024 / 16));
        for (int i = 0; i < 20; i++) {
            state.put("blob-" + i, mebibyte);
        }
        var big = Checkpoints.builder("big", 0).state(state).build();
        var uncompressed = S3Storage.builder(
                        S3.server().config(s3.bucket()).prefix(PREFIX).build())
                .settings(dev.agentpersistence.storage.StorageSettings.custom()
                        .layers(dev.agentpersistence.codec.DocumentLayers.custom()
                                .checksum(true)
                                .build())
                        .blobThreshold(0) // the values inline: one 20 MiB document
                        .build())
                .build();
        uncompressed.saveCheckpoint("big", big);
        uncompressed.close();
        assertThat(S3.server()
                        .admin()
                        .headObject(b -> b.bucket(s3.bucket()).key(LAYOUT.bodyKey(KeyParts.encode("big"), 0)))
                        .contentLength())
                .isGreaterThan(20L * 1024 * 1024);
        assertThat(provider.getLatestCheckpoint("big")).contains(big);

        var zipped =
                open(S3.server().config(s3.bucket()).prefix(PREFIX).gzip(true).build());
        var bigger = big.toBuilder().checkpointId("cp-1").version(1).build();
        zipped.saveCheckpoint("big", bigger);
        assertThat(provider.getCheckpoint("big", "cp-1")).contains(bigger);
    }

    @Test
    void bodiesOverTheMaximumAreRefusedBeforeTheyAreReadOrUnpacked() throws Exception {
        provider.saveCheckpoint("agent", Checkpoints.simple("agent", 0));
        provider.saveCheckpoint("agent", Checkpoints.simple("agent", 1));
        provider.saveCheckpoint("agent", Checkpoints.simple("agent", 2));
        var oneMebibyte = S3Storage.builder(
                        S3.server().config(s3.bucket()).prefix(PREFIX).build(), s3.client())
                .settings(dev.agentpersistence.storage.StorageSettings.custom()
                        .maxCheckpointSize(1 << 20)
                        .build())
                .build();
        String gzipKey = LAYOUT.bodyKey(KeyParts.encode("agent"), 1);
        var bomb = new java.io.ByteArrayOutputStream();
        try (var zip = new java.util.zip.GZIPOutputStream(bomb)) {
            zip.write(new byte[64 << 20]); // 64 MiB of zeros in about 64 KiB
        }
        S3.server()
                .admin()
                .putObject(
                        b -> b.bucket(s3.bucket()).key(gzipKey).metadata(Map.of("checkpoint-encoding", "gzip")),
                        RequestBody.fromBytes(bomb.toByteArray()));
        assertThatThrownBy(() -> oneMebibyte.getCheckpoints(
                        "agent",
                        CheckpointFilter.builder().maxVersion(1L).limit(1).build()))
                .isInstanceOfSatisfying(
                        CorruptCheckpointException.class,
                        e -> assertThat(e.location()).isEqualTo("s3://" + s3.bucket() + "/" + gzipKey))
                .hasMessageContaining("unpacks to more than the maximum checkpoint size of 1048576");

        String plainKey = LAYOUT.bodyKey(KeyParts.encode("agent"), 0);
        put(plainKey, new byte[(1 << 20) + 1]);
        assertThatThrownBy(() -> oneMebibyte.getCheckpoints(
                        "agent", CheckpointFilter.builder().maxVersion(0L).build()))
                .isInstanceOfSatisfying(
                        CorruptCheckpointException.class,
                        e -> assertThat(e.location()).isEqualTo("s3://" + s3.bucket() + "/" + plainKey))
                .hasMessageContaining("1048577 bytes");
        assertThat(oneMebibyte.getLatestCheckpoint("agent")).contains(Checkpoints.simple("agent", 2));
    }

    @Test
    void corruptBodiesNameTheirObject() {
        provider.saveCheckpoint("agent", Checkpoints.simple("agent", 0));
        String key = LAYOUT.bodyKey(KeyParts.encode("agent"), 0);
        put(key, "{not json".getBytes());
        assertThatThrownBy(() -> provider.getLatestCheckpoint("agent"))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("s3://" + s3.bucket() + "/" + key)
                .extracting(e -> ((CorruptCheckpointException) e).location())
                .isEqualTo("s3://" + s3.bucket() + "/" + key);

        S3.server()
                .admin()
                .putObject(
                        b -> b.bucket(s3.bucket()).key(key).metadata(Map.of("checkpoint-encoding", "gzip")),
                        RequestBody.fromString("plain text"));
        assertThatThrownBy(() -> provider.getCheckpoint("agent", "cp-0"))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("s3://" + s3.bucket() + "/" + key);

        put(key, CheckpointCodec.json().encode(Checkpoints.simple("agent", 5)));
        assertThatThrownBy(() -> provider.getCheckpoints("agent"))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("filed as version 0");
    }

    @Test
    void aBodyReplacedByAnotherCheckpointsIsCorruptOnEveryReadPathLookupIncluded() {
        var encrypting = S3Storage.builder(
                        S3.server().config(s3.bucket()).prefix(PREFIX).build(), s3.client())
                .settings(dev.agentpersistence.storage.StorageSettings.custom()
                        .layers(dev.agentpersistence.codec.DocumentLayers.custom()
                                .checksum(true)
                                .encryption(dev.agentpersistence.codec.EncryptionKeys.custom()
                                        .key("k1", new byte[32])
                                        .build())
                                .build())
                        .build())
                .build();
        encrypting.saveCheckpoint("agent", Checkpoints.simple("agent", 0));
        encrypting.saveCheckpoint("agent", Checkpoints.simple("agent", 1));
        String first = LAYOUT.bodyKey(KeyParts.encode("agent"), 0);
        byte[] second = S3.server()
                .admin()
                .getObjectAsBytes(b -> b.bucket(s3.bucket()).key(LAYOUT.bodyKey(KeyParts.encode("agent"), 1)))
                .asByteArray();
        put(first, second);

        assertThatThrownBy(() -> encrypting.getCheckpoint("agent", "cp-0"))
                .isInstanceOfSatisfying(CorruptCheckpointException.class, e -> {
                    assertThat(e.checkpointId()).isEqualTo("cp-0");
                    assertThat(e.location()).isEqualTo("s3://" + s3.bucket() + "/" + first);
                })
                .hasMessageContaining("cp-0")
                .hasMessageContaining("version 0");
        assertThatThrownBy(() -> encrypting.getCheckpoints("agent"))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("filed as version 0");
        assertThat(encrypting.getCheckpoint("agent", "cp-1")).contains(Checkpoints.simple("agent", 1));
        encrypting.close();
    }

    @Test
    void leftoversOfAnInterruptedSaveAreInvisibleAndDoNotBlockIt() {
        var checkpoint = Checkpoints.builder("agent", 4).nodeId("ghost").build();
        String agent = KeyParts.encode("agent");
        // A save that stopped after its claim and index entry, before its body.
        put(LAYOUT.markerKey(agent, KeyParts.encode("cp-4")), new IdMarker(4, "cp-4").toBytes());
        put(LAYOUT.indexKey(agent, IndexEntry.of(TestRecords.stored(checkpoint))), IndexEntry.CONTENT);

        assertThat(provider.getCheckpoint("agent", "cp-4")).isEmpty();
        assertThat(provider.getCheckpoints(
                        "agent", CheckpointFilter.builder().nodeId("ghost").build()))
                .isEmpty();
        assertThat(provider.getLatestCheckpoint("agent")).isEmpty();
        assertThat(provider.listAgents()).isEmpty();

        // Another version took version 4 meanwhile: the stale entry must not make it match "ghost".
        var other = Checkpoints.builder("agent", 4)
                .checkpointId("other")
                .nodeId("real")
                .build();
        provider.saveCheckpoint("agent", other);
        assertThat(provider.getCheckpoints(
                        "agent", CheckpointFilter.builder().nodeId("ghost").build()))
                .isEmpty();
        assertThat(provider.getCheckpoints(
                        "agent", CheckpointFilter.builder().nodeId("real").build()))
                .containsExactly(other);
        assertThat(provider.getCheckpoint("agent", "cp-4")).isEmpty();

        // The interrupted id, saved again at a new version, takes over its stale claim.
        var retried = Checkpoints.builder("agent", 5).checkpointId("cp-4").build();
        provider.saveCheckpoint("agent", retried);
        assertThat(provider.getCheckpoint("agent", "cp-4")).contains(retried);
        assertThat(provider.getCheckpoints("agent")).containsExactly(other, retried);
    }

    @Test
    void aFreshClaimWithoutBodyBlocksOtherVersionsButNotItsOwn() {
        String agent = KeyParts.encode("agent");
        put(LAYOUT.markerKey(agent, KeyParts.encode("cp-1")), new IdMarker(1, "cp-1").toBytes());
        var elsewhere = Checkpoints.builder("agent", 2).checkpointId("cp-1").build();
        assertThatThrownBy(() -> provider.saveCheckpoint("agent", elsewhere))
                .isInstanceOf(CheckpointConflictException.class)
                .hasMessageContaining("being saved as version 1");
        var own = Checkpoints.simple("agent", 1);
        provider.saveCheckpoint("agent", own);
        assertThat(provider.getCheckpoint("agent", "cp-1")).contains(own);
    }

    @Test
    void longAgentIdsAreListedThroughTheirNameObject() {
        String longId = "agent/" + "ü".repeat(200);
        provider.saveCheckpoint(longId, Checkpoints.simple(longId, 0));
        provider.saveCheckpoint("short", Checkpoints.simple("short", 0));
        String segment = KeyParts.encode(longId);
        assertThat(segment).startsWith("s").hasSize(65);
        assertThat(keys()).contains(PREFIX + "/n/" + segment);
        assertThat(provider.listAgents()).containsExactly(longId, "short");
        assertThat(provider.deleteCheckpoints(longId)).isEqualTo(1);
        assertThat(keys()).noneMatch(k -> k.contains(segment));
        assertThat(provider.listAgents()).containsExactly("short");
    }

    @Test
    void anEmptyPrefixUsesTheBucketRoot() {
        var atRoot = open(S3.server().config(s3.bucket()).build());
        atRoot.saveCheckpoint("agent", Checkpoints.simple("agent", 0));
        assertThat(keys())
                .allMatch(k -> k.startsWith("v/") || k.startsWith("x/") || k.startsWith("id/") || k.startsWith("l/"));
        assertThat(provider.getCheckpoints("agent")).isEmpty();
        assertThat(atRoot.getCheckpoints("agent")).hasSize(1);
    }

    @Test
    void theFactoryStoresDocumentsWithTheCodecOfTheSettings() {
        String key = java.util.Base64.getEncoder().encodeToString(new byte[32]);
        var settings = dev.agentpersistence.spi.ProviderConfig.of(Map.of(
                S3StorageConfig.BUCKET.key(),
                s3.bucket(),
                S3StorageConfig.PREFIX.key(),
                PREFIX,
                S3StorageConfig.ENDPOINT.key(),
                S3.server().endpoint().toString(),
                S3StorageConfig.ACCESS_KEY_ID.key(),
                S3ProxyServer.ACCESS_KEY,
                S3StorageConfig.SECRET_ACCESS_KEY.key(),
                S3ProxyServer.SECRET_KEY,
                dev.agentpersistence.codec.CodecSettings.ENCRYPTION_KEYS.key(),
                "k1:" + key));
        var checkpoint =
                Checkpoints.builder("secret-agent", 0).nodeId("classified-node").build();
        try (var encrypted = new S3StorageProviderFactory().create(settings)) {
            encrypted.saveCheckpoint("secret-agent", checkpoint);
            assertThat(encrypted.getLatestCheckpoint("secret-agent")).contains(checkpoint);
        }
        String stored = new String(
                S3.server()
                        .admin()
                        .getObjectAsBytes(
                                b -> b.bucket(s3.bucket()).key(LAYOUT.bodyKey(KeyParts.encode("secret-agent"), 0)))
                        .asByteArray(),
                java.nio.charset.StandardCharsets.ISO_8859_1);
        assertThat(stored).doesNotContain("classified-node");
    }

    @Test
    void theApplicationsClientStaysOpenAfterClose() {
        provider.saveCheckpoint("agent", Checkpoints.simple("agent", 0));
        provider.close();
        assertThatThrownBy(() -> provider.getCheckpoints("agent")).isInstanceOf(IllegalStateException.class);
        assertThat(s3.client().listObjectsV2(b -> b.bucket(s3.bucket())).contents())
                .hasSize(4);
    }
}
