package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CheckpointTooLargeException;
import dev.agentpersistence.ContentPart;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.backend.BlobArea;
import dev.agentpersistence.backend.SegmentInfo;
import dev.agentpersistence.backend.StoredDocument;
import dev.agentpersistence.backend.StoredForm;
import dev.agentpersistence.history.RetentionPolicy;
import dev.agentpersistence.history.RetentionSweeper;
import dev.agentpersistence.storage.StorageSettings;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Large media parts and state values stored by reference (claim check): a part of at least
 * {@code agent.persistence.blob-threshold} bytes (or a state value whose JSON is that large) is stored once by its
 * SHA-256 in the store's blob area, shared by every checkpoint and agent, and reads back equal; blob bytes that are not
 * what the reference names are a {@link CorruptCheckpointException} naming the blob; the maximum checkpoint size counts
 * each distinct blob a document references; and a retention sweep frees a blob no kept checkpoint references, never one
 * a kept checkpoint or a save in flight needs. Aborted with the reason for providers without a blob area.
 */
abstract class BlobContract extends Contract {
    /** Above the default threshold of 64 KiB. */
    private static final int LARGE = 200 << 10;

    BlobContract(KitSession session) {
        super(session);
    }

    private BlobArea area(PersistenceStorageProvider<CheckpointFilter> provider) {
        var area = provider.storedForm().flatMap(StoredForm::blobArea);
        Assumptions.assumeTrue(area.isPresent(), providerName() + " stores no parts by reference (no blob area)");
        return area.get();
    }

    private static Set<String> blobs(BlobArea area) {
        return area.segments().listSegments(area.agentId()).stream()
                .map(SegmentInfo::segmentId)
                .collect(Collectors.toSet());
    }

    /**
     * The blobs the area holds that {@code before} did not. Blob names are the store's own (with encryption they are
     * keyed hashes), so the kit learns them by looking.
     */
    private static Set<String> added(BlobArea area, Set<String> before) {
        Set<String> added = blobs(area);
        added.removeAll(before);
        return added;
    }

    static byte[] image(long seed, int size) {
        var bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    /** The plain name of a blob of {@code bytes} (the name without encryption). */
    static String blobId(byte[] bytes) throws Exception {
        return "blob-"
                + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    /** Saves {@code checkpoint} and answers the one blob name the save added to {@code area}. */
    private String savedBlob(BlobArea area, AgentCheckpoint checkpoint) {
        Set<String> before = blobs(area);
        provider().saveCheckpoint(checkpoint.agentId(), checkpoint);
        Set<String> added = added(area, before);
        assertThat(added)
                .as("blobs added by saving %s", checkpoint.checkpointId())
                .hasSize(1);
        return added.iterator().next();
    }

    private static Message withImage(String id, byte[] image) {
        return new Message(
                id,
                Message.Role.USER,
                "what is in this picture?",
                List.of(
                        ContentPart.text("look"),
                        ContentPart.bytes(ContentPart.MediaKind.IMAGE, image, "image/png")
                                .withName("photo.png"),
                        ContentPart.bytes(ContentPart.MediaKind.AUDIO, new byte[] {1, 2, 3}, "audio/wav")),
                null,
                Map.of("channel", "web"));
    }

    /** A conversation of {@code turns} turns, each with a copy of {@code image}. */
    private static List<Message> conversation(String prefix, byte[] image, int turns) {
        var messages = new ArrayList<Message>();
        for (int turn = 0; turn < turns; turn++) {
            messages.add(withImage(prefix + "-q" + turn, image));
            messages.add(Message.assistant("a picture, turn " + turn).withId(prefix + "-a" + turn));
        }
        return messages;
    }

    @Test
    @DisplayName("a large media part reads back equal from every read, also from another provider instance")
    void roundTrip() throws Exception {
        var area = area(provider());
        Set<String> before = blobs(area);
        String agent = agent("blob-round-trip");
        byte[] image = image(1, LARGE);
        var checkpoint = Checkpoints.builder(agent, 0)
                .messageHistory(conversation("m", image, 2))
                .build();
        provider().saveCheckpoint(agent, checkpoint);
        provider().saveCheckpoint(agent, checkpoint); // an idempotent retry
        assertThat(provider().getLatestCheckpoint(agent)).contains(checkpoint);
        assertThat(provider().getCheckpoints(agent)).containsExactly(checkpoint);
        assertThat(optional("getCheckpoint", () -> provider().getCheckpoint(agent, checkpoint.checkpointId())))
                .contains(checkpoint);
        assertThat(added(area, before))
                .as("one blob, the image; the tiny audio part stays inline")
                .hasSize(1);
        assertThat(optional("listAgents", () -> provider().listAgents()))
                .as("the blob area is no agent")
                .contains(agent)
                .doesNotContain(area.agentId());
        assertThat(provider().storedForm().orElseThrow().listSegmentAgents()).doesNotContain(area.agentId());
        for (StoredDocument document : provider().storedForm().orElseThrow().documents(agent, null)) {
            assertThat(document.size())
                    .as("the record holds the image by reference")
                    .isLessThan(LARGE);
        }
        if (sharesStorage()) {
            assertThat(newProvider().getCheckpoints(agent)).containsExactly(checkpoint);
        }
    }

    @Test
    @DisplayName("a URL part that looks like a blob reference stays the URL it is")
    void urlLikeAReference() {
        String agent = agent("blob-url");
        var part = ContentPart.url(
                ContentPart.MediaKind.IMAGE, "agent-persistence-blob:sha256:" + "0".repeat(64) + ":3", null);
        var checkpoint = Checkpoints.builder(agent, 0)
                .messageHistory(List.of(new Message("u", Message.Role.USER, "", List.of(part), null, Map.of())))
                .build();
        provider().saveCheckpoint(agent, checkpoint);
        assertThat(provider().getCheckpoints(agent)).containsExactly(checkpoint);
    }

    @Test
    @DisplayName("20 copies of one image over checkpoints and agents store one blob")
    void deduplicated() throws Exception {
        var area = area(provider());
        byte[] image = image(2, LARGE);
        Set<String> before = blobs(area);
        var saved = new ArrayList<AgentCheckpoint>();
        for (String label : List.of("blob-dedup-a", "blob-dedup-b")) {
            String agent = agent(label);
            for (int version = 0; version < 10; version++) {
                var checkpoint = Checkpoints.builder(agent, version)
                        .messageHistory(conversation(label, image, version + 1))
                        .build();
                provider().saveCheckpoint(agent, checkpoint);
                saved.add(checkpoint);
            }
        }
        assertThat(added(area, before)).hasSize(1);
        for (AgentCheckpoint checkpoint : saved) {
            assertThat(provider().getCheckpoint(checkpoint.agentId(), checkpoint.checkpointId()))
                    .contains(checkpoint);
        }
    }

    @Test
    @DisplayName("a large state value is stored once by reference over agents and reads back equal")
    void stateValue() {
        var area = area(provider());
        Set<String> before = blobs(area);
        var state = Map.of("document", Checkpoints.largeText(LARGE), "small", Checkpoints.json("{\"n\":1.50}"));
        for (String label : List.of("blob-state-a", "blob-state-b")) {
            String agent = agent(label);
            var checkpoint = Checkpoints.builder(agent, 0).state(state).build();
            provider().saveCheckpoint(agent, checkpoint);
            assertThat(provider().getCheckpoints(agent)).containsExactly(checkpoint);
            for (StoredDocument document : provider().storedForm().orElseThrow().documents(agent, null)) {
                assertThat(document.size())
                        .as("the record holds the value by reference")
                        .isLessThan(LARGE);
            }
            if (sharesStorage()) {
                assertThat(newProvider().getCheckpoints(agent)).containsExactly(checkpoint);
            }
        }
        assertThat(added(area, before)).hasSize(1);
    }

    @Test
    @DisplayName("blob bytes that are not what the reference names are a CorruptCheckpointException naming the blob")
    void plantedBlob() throws Exception {
        var area = area(provider());
        String agent = agent("blob-planted");
        byte[] image = image(3, LARGE);
        // the name the store keeps this image under, from a save of another agent; then other bytes under that name
        String other = agent("blob-planted-name");
        String blobId = savedBlob(
                area,
                Checkpoints.builder(other, 0)
                        .messageHistory(conversation("q", image, 1))
                        .build());
        area.segments()
                .deleteSegments(area.agentId(), Set.of(blobId), Instant.now().plus(Duration.ofDays(1)));
        // the save finds the name taken (or put a moment ago) and keeps the stored bytes
        area.segments().putSegment(area.agentId(), blobId, "not the image".getBytes(StandardCharsets.UTF_8));
        var checkpoint = Checkpoints.builder(agent, 0)
                .messageHistory(conversation("p", image, 1))
                .build();
        provider().saveCheckpoint(agent, checkpoint);
        var reader = sharesStorage() ? newProvider() : provider();
        assertThatThrownBy(() -> reader.getCheckpoints(agent))
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining(blobId)
                .hasMessageContaining(agent);
    }

    @Test
    @DisplayName("the maximum checkpoint size counts each distinct blob a document references once")
    void limitCountsBlobs() {
        area(provider());
        var small = newProvider(
                StorageSettings.custom().maxCheckpointSize(LARGE * 3L / 2).build());
        String agent = agent("blob-limit");
        byte[] image = image(4, LARGE);
        var copies = Checkpoints.builder(agent, 0)
                .messageHistory(List.of(images("copies", image, image, image)))
                .build();
        small.saveCheckpoint(agent, copies);
        assertThat(small.getCheckpoints(agent)).containsExactly(copies);
        var twoImages = Checkpoints.builder(agent, 1)
                .messageHistory(List.of(images("two", image, image(8, LARGE))))
                .build();
        assertThatThrownBy(() -> small.saveCheckpoint(agent, twoImages))
                .isInstanceOf(CheckpointTooLargeException.class);
        assertThat(small.getCheckpoints(agent)).containsExactly(copies);
    }

    private static Message images(String id, byte[]... images) {
        var parts = new ArrayList<ContentPart>();
        for (byte[] image : images) {
            parts.add(ContentPart.bytes(ContentPart.MediaKind.IMAGE, image, "image/jpeg"));
        }
        return new Message(id, Message.Role.USER, "", parts, null, Map.of());
    }

    @Test
    @DisplayName("message metadata with the reserved prefix is refused and nothing is stored")
    void reservedMessageMetadata() {
        area(provider()); // the marker of parts by reference is the shell's; other providers store any metadata
        String agent = agent("blob-reserved");
        var message = Message.user("hi").withMetadata("__agent-persistence.blob-parts", "0");
        var checkpoint =
                Checkpoints.builder(agent, 0).messageHistory(List.of(message)).build();
        assertThatThrownBy(() -> provider().saveCheckpoint(agent, checkpoint))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("__agent-persistence.");
        assertThat(provider().getCheckpoints(agent)).isEmpty();
    }

    @Test
    @DisplayName("a sweep frees a blob no kept checkpoint references and keeps a referenced or fresh one")
    void retention() throws Exception {
        var area = area(provider());
        String dropped = agent("blob-retention-dropped");
        String kept = agent("blob-retention-kept");
        byte[] droppedImage = image(5, LARGE);
        byte[] keptImage = image(6, LARGE);
        byte[] fresh = image(7, 1000);
        String droppedId = savedBlob(
                area,
                Checkpoints.builder(dropped, 0)
                        .messageHistory(conversation("d", droppedImage, 1))
                        .build());
        var latest = Checkpoints.builder(dropped, 1)
                .messageHistory(List.of(Message.user("a new conversation").withId("n0")))
                .build();
        provider().saveCheckpoint(dropped, latest);
        var keptCheckpoint = Checkpoints.builder(kept, 0)
                .messageHistory(conversation("k", keptImage, 2))
                .build();
        String keptId = savedBlob(area, keptCheckpoint);

        // written just now, referenced by nothing yet: a save in flight
        area.segments().putSegment(area.agentId(), blobId(fresh), new byte[] {1});
        var patient = sweeper(Duration.ofHours(1));
        optional("deleteCheckpointsBefore", patient::sweep);
        assertThat(blobs(area))
                .as("blobs written within the grace period, referenced or not")
                .contains(blobId(fresh), droppedId, keptId);
        assertThat(provider().getCheckpoints(dropped)).containsExactly(latest);

        var eager = sweeper(Duration.ofMinutes(5));
        optional("deleteCheckpointsBefore", eager::sweep);
        assertThat(blobs(area)).doesNotContain(droppedId, blobId(fresh)).contains(keptId);
        assertThat(provider().getCheckpoints(kept)).containsExactly(keptCheckpoint);
        assertThat(provider().getCheckpoints(dropped)).containsExactly(latest);
        if (sharesStorage()) {
            assertThat(newProvider().getCheckpoints(kept)).containsExactly(keptCheckpoint);
        }
    }

    /** A sweep keeping each agent's latest checkpoint, ten minutes ahead of now. */
    private RetentionSweeper sweeper(Duration gracePeriod) {
        return RetentionSweeper.builder(provider())
                .policy(RetentionPolicy.custom().keepLatest(1).build())
                .gracePeriod(gracePeriod)
                .clock(Clock.offset(Clock.systemUTC(), Duration.ofMinutes(10)))
                .build();
    }
}
