package dev.agentpersistence.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.PersistenceStorageProvider;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Property-based round trips of hostile input on every provider: random valid ids (path, quote, glob and escape
 * characters, every unicode plane, 256 characters), any text in node ids, contents and metadata, random JSON trees,
 * times from 1900 to 2200 and versions up to {@code Long.MAX_VALUE}. Every generated checkpoint must come back equal
 * through lookup, list, latest and a metadata filter on each backend. Examples add deep and large JSON and huge
 * messages. Tries per property: 25, or {@code -Djqwik.tries.default=N}.
 */
class HostileInputPropertiesTest {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final AtomicLong TRIES = new AtomicLong();
    private static final AtomicLong ROUND_TRIPS = new AtomicLong();

    private static Path dir;
    private static Backends backends;
    private static Map<Backend, PersistenceStorageProvider<CheckpointFilter>> providers;

    @BeforeContainer
    static void open() throws Exception {
        dir = Ids.scratch("hostile");
        backends = new Backends(dir);
        providers = new LinkedHashMap<>();
        for (Backend backend : backends.all()) {
            providers.put(backend, backend.open());
        }
    }

    @AfterContainer
    static void close() throws Exception {
        if (TRIES.get() > 0) {
            Figures.record(
                    "hostile input (jqwik)",
                    String.join(
                            ", ",
                            providers.keySet().stream().map(Backend::label).toList()),
                    TRIES.get() + " generated checkpoints, " + ROUND_TRIPS.get()
                            + " round trips (save, lookup, list, latest, metadata filter, delete), all equal");
        }
        for (var provider : providers.values()) {
            provider.close();
        }
        backends.close();
        Ids.delete(dir);
    }

    @Provide
    Arbitrary<AgentCheckpoint> hostile() {
        return HostileArbitraries.ids().flatMap(HostileArbitraries::checkpoints);
    }

    @Property
    void everyCheckpointRoundTripsOnEveryProvider(@ForAll("hostile") AgentCheckpoint checkpoint) {
        TRIES.incrementAndGet();
        for (var entry : providers.entrySet()) {
            roundTrip(entry.getKey(), entry.getValue(), checkpoint);
        }
    }

    /** Jackson writes at most 1,000 nesting levels, so deeper state is refused at encoding, before any write. */
    @Example
    void deepJsonRoundTripsOrIsRefusedBeforeAnythingIsStored() {
        for (int depth : new int[] {200, 900, 1_500}) {
            JsonNode deep = JSON.textNode("bottom");
            for (int i = 0; i < depth; i++) {
                deep = i % 2 == 0
                        ? JSON.arrayNode().add(deep)
                        : JSON.objectNode().set("k", deep);
            }
            for (var entry : providers.entrySet()) {
                String agent = Ids.unique("deep");
                var checkpoint = base(agent).state("deep", deep).build();
                var storage = entry.getValue();
                try {
                    storage.saveCheckpoint(agent, checkpoint);
                } catch (PersistenceException | IllegalArgumentException | java.io.UncheckedIOException e) {
                    assertThat(depth)
                            .as("%s refused depth %d: %s", entry.getKey(), depth, e)
                            .isGreaterThan(900);
                    assertThat(storage.getCheckpoints(agent))
                            .as("nothing stored after a refused save")
                            .isEmpty();
                    continue;
                }
                assertThat(storage.getCheckpoint(agent, checkpoint.checkpointId()))
                        .as("%s depth %d", entry.getKey(), depth)
                        .contains(checkpoint);
                storage.deleteCheckpoints(agent);
            }
        }
    }

    @Example
    void largeStateAndHugeMessagesRoundTrip() {
        ObjectNode wide = JSON.objectNode();
        for (int i = 0; i < 20_000; i++) {
            wide.put("key-" + i + "-ü", i);
        }
        // About 2.8 MB of UTF-8. MariaDB refuses statements over max_allowed_packet (16 MiB on the shared
        // server; the client escapes binary payloads, so about half of it is usable): see RELIABILITY.md.
        String huge = "ä😀x".repeat(400_000);
        for (var entry : providers.entrySet()) {
            String agent = Ids.unique("large");
            var checkpoint =
                    base(agent).state("wide", wide).message(Message.user(huge)).build();
            entry.getValue().saveCheckpoint(agent, checkpoint);
            assertThat(entry.getValue().getLatestCheckpoint(agent))
                    .as(entry.getKey().label())
                    .contains(checkpoint);
            entry.getValue().deleteCheckpoints(agent);
        }
    }

    @Example
    void invalidIdsAreRefusedBeforeReachingAnyBackend() {
        for (var storage : providers.values()) {
            for (String bad : List.of("", "a\u0000b", "tab\there", "x".repeat(257), "\uD800lone")) {
                assertThatThrownBy(() -> storage.getCheckpoints(bad)).isInstanceOf(PersistenceException.class);
            }
        }
    }

    private static AgentCheckpoint.Builder base(String agent) {
        return AgentCheckpoint.builder()
                .checkpointId("cp")
                .agentId(agent)
                .version(0)
                .createdAt(Instant.parse("2026-01-01T00:00:00.000000001Z"));
    }

    private static void roundTrip(
            Backend backend, PersistenceStorageProvider<CheckpointFilter> storage, AgentCheckpoint checkpoint) {
        String agent = checkpoint.agentId();
        storage.deleteCheckpoints(agent);
        storage.saveCheckpoint(agent, checkpoint);
        assertThat(storage.getCheckpoint(agent, checkpoint.checkpointId()))
                .as("%s lookup", backend)
                .contains(checkpoint);
        assertThat(storage.getCheckpoints(agent)).as("%s list", backend).containsExactly(checkpoint);
        assertThat(storage.getLatestCheckpoint(agent)).as("%s latest", backend).contains(checkpoint);
        assertThat(storage.getCheckpoints(
                        agent,
                        CheckpointFilter.builder()
                                .metadata(checkpoint.metadata())
                                .maxVersion(checkpoint.version())
                                .createdAfter(checkpoint.createdAt())
                                .build()))
                .as("%s filtered", backend)
                .containsExactly(checkpoint);
        storage.saveCheckpoint(agent, checkpoint);
        assertThat(storage.deleteCheckpoints(agent)).as("%s delete", backend).isEqualTo(1);
        ROUND_TRIPS.incrementAndGet();
    }
}
