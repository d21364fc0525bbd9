package dev.agentpersistence.tck;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.storage.StorageSettings;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The conformance kit every storage provider runs: extend it in a test, implement {@link #createProvider()}, and JUnit
 * runs every contract of {@link PersistenceStorageProvider} against the provider, one {@link Nested} group per
 * contract.
 *
 * <pre>{@code
 * class MyStorageProviderTest extends StorageProviderCompatibilityKit {
 *     @TempDir Path dir;
 *     protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
 *         return MyStorageProvider.open(dir);
 *     }
 * }
 * }</pre>
 *
 * <p>Agent ids carry a random suffix unique to each test, so storage shared between tests or runs (one database, one
 * Redis) does not disturb results. Every provider the kit creates is closed after the test; {@code close()} must
 * therefore be idempotent. Operations the SPI lets a provider leave out ({@code deleteCheckpoints},
 * {@code deleteCheckpointsBefore}, {@code listAgents}, an overridden {@code getCheckpoint} or {@code close}) are
 * detected: their tests are aborted with the reason, so they show as skipped, never as passed. Failures are prefixed
 * with the name of the provider test class, since reports file the inherited groups under the kit's own class names. A
 * run in which none of the contract groups ran (a runner that does not run {@code @Nested} classes) fails the provider
 * test class instead of passing.
 *
 * <p>Providers built on the storage shell ({@link dev.agentpersistence.storage.StorageShell}) should override
 * {@link #createProvider(StorageSettings)}, which runs the read matrix, and run the kit a second time writing with
 * every layer ({@link KitSettings#everyLayer()}).
 */
@ExtendWith({ProviderTestNaming.class, ContractTally.class})
public abstract class StorageProviderCompatibilityKit {

    private final KitSession session = new KitSession(
            this::createProvider,
            this::createProvider,
            this::sharesStorageAcrossInstances,
            this::dumpStorage,
            this::absentStore);

    /**
     * A provider over this test's storage. Every call within one test returns a provider over the SAME underlying
     * storage (so a second instance sees the first one's saves); each test gets fresh storage.
     */
    protected abstract PersistenceStorageProvider<CheckpointFilter> createProvider() throws Exception;

    /**
     * A provider over this test's storage (the same storage as {@link #createProvider()}) that writes with
     * {@code settings}: the hook of the read-matrix group, which writes with each configuration and reads with each
     * other one. Providers built on the storage shell ({@link dev.agentpersistence.storage.StorageShell}) implement it
     * by passing the settings to their builder; the default aborts the read-matrix tests with the reason (a provider
     * written straight against the three-method SPI has no stored form to configure).
     */
    protected PersistenceStorageProvider<CheckpointFilter> createProvider(StorageSettings settings) throws Exception {
        Assumptions.abort(
                "the read matrix and the encryption-at-rest group need createProvider(StorageSettings), which "
                        + getClass().getName() + " does not override: its provider has no configurable stored form");
        throw new AssertionError("unreachable");
    }

    /**
     * JSON libraries the read matrix writes with besides Jackson 2, whose trees the data model stores: for each, the
     * matrix writes its checkpoints with every configuration once more, their JSON values (inputs, state, tool call
     * arguments) built through that library, and checks the documents are byte for byte Jackson 2's and every
     * configuration reads them back equal. A module bringing another JSON library (persistence-jackson3) runs the kit
     * with it; the default is none, so no provider needs any JSON library but Jackson 2.
     */
    protected List<JsonWriter> jsonWriters() {
        return List.of();
    }

    /**
     * Whether two providers from {@link #createProvider()} in one test share their storage; {@code false} for providers
     * that keep checkpoints inside the instance (in memory), which skips the shared-storage contracts with that reason.
     */
    protected boolean sharesStorageAcrossInstances() {
        return true;
    }

    /**
     * Everything this test's storage holds at rest, as raw bytes: table rows, keys and values, files or objects, with
     * their names. The encryption-at-rest group searches it for the plaintext of values it saved encrypted. The default
     * aborts that group with the reason (a store kept in the heap has nothing at rest).
     */
    protected byte[] dumpStorage() throws Exception {
        Assumptions.abort("the encryption-at-rest group needs dumpStorage(), which "
                + getClass().getName() + " does not override");
        throw new AssertionError("unreachable");
    }

    /**
     * A store that does not exist (a fresh directory path, database file, table prefix or bucket nobody created), for
     * the read-only group, which opens it read-only and checks it fails with
     * {@link dev.agentpersistence.StorageNotFoundException} and stays absent. The default aborts that test with the
     * reason (a store kept in the heap always exists).
     */
    protected AbsentStore absentStore() throws Exception {
        Assumptions.abort("the read-only group's absent-store test needs absentStore(), which "
                + getClass().getName() + " does not override");
        throw new AssertionError("unreachable");
    }

    /** The test's main provider (created on first use, closed after the test), for extra tests of a subclass. */
    protected final PersistenceStorageProvider<CheckpointFilter> provider() {
        return session.provider();
    }

    /** {@code label} made unique to the running test, for extra tests of a subclass. */
    protected final String uniqueAgentId(String label) {
        return session.agentId(label);
    }

    @AfterEach
    final void closeCreatedProviders() {
        session.closeAll();
    }

    @Nested
    @DisplayName("Encryption at rest: filters work on keyed hashes, a dump shows no saved value")
    class EncryptionAtRest extends EncryptionAtRestContract {
        EncryptionAtRest() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Round trip: saved checkpoints read back equal in every field")
    class RoundTrip extends RoundTripContract {
        RoundTrip() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Ordering: lists are ascending by version")
    class Ordering extends OrderingContract {
        Ordering() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Latest: getLatestCheckpoint returns the highest matching version")
    class Latest extends LatestContract {
        Latest() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Filters: every CheckpointFilter field, alone and combined")
    class Filters extends FilterContract {
        Filters() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Limit: the N newest matches, returned ascending")
    class Limit extends LimitContract {
        Limit() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Lookup: getCheckpoint finds one checkpoint by id")
    class Lookup extends LookupContract {
        Lookup() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Isolation: agents never see each other's checkpoints")
    class Isolation extends IsolationContract {
        Isolation() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Identifiers: hostile ids are stored safely, invalid ids are rejected")
    class Identifiers extends IdentifierContract {
        Identifiers() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Surrogates: half an emoji in an id, node id or metadata is refused; whole emoji are found")
    class Surrogates extends SurrogateContract {
        Surrogates() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Messages: ids and content parts (text, image, audio, video, file) round-trip exactly")
    class Messages extends MessageContract {
        Messages() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Conflicts: a save never overwrites different content")
    class Conflicts extends ConflictContract {
        Conflicts() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Batch saves: many checkpoints at once, each with the guarantees of a single save")
    class BatchSaves extends BatchSaveContract {
        BatchSaves() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Concurrency: racing saves have one winner and lose nothing")
    class Concurrency extends ConcurrencyContract {
        Concurrency() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Shared storage: several instances act as one store")
    class SharedStorage extends SharedStorageContract {
        SharedStorage() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Arguments: saveCheckpoint checks the agent")
    class Arguments extends ArgumentContract {
        Arguments() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Deletion: deleteCheckpoints, deleteCheckpointsBefore and listAgents")
    class Deletion extends DeletionContract {
        Deletion() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Tombstones: saved like any checkpoint, excluded on request")
    class Tombstones extends TombstoneContract {
        Tombstones() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Growing history: a long run whose history grows every step reads back exactly")
    class GrowingHistory extends GrowingHistoryContract {
        GrowingHistory() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("History variants: truncated, edited, rolled back and boundary-sized histories read back exactly")
    class HistoryVariants extends HistoryVariantsContract {
        HistoryVariants() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Retention: deleting old checkpoints never breaks a kept one")
    class Retention extends RetentionContract {
        Retention() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Blobs: large media parts stored once by content hash, verified, bounded and collected")
    class Blobs extends BlobContract {
        Blobs() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Segments: the HistorySegmentStore capability, when the provider has it")
    class Segments extends SegmentStoreContract {
        Segments() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Read matrix: what any configuration writes, every other configuration reads back complete")
    class ReadMatrix extends ReadMatrixContract {
        ReadMatrix() {
            super(StorageProviderCompatibilityKit.this.session, StorageProviderCompatibilityKit.this::jsonWriters);
        }
    }

    @Nested
    @DisplayName("Retention race: trimming old versions never hides the latest checkpoint from readers")
    class RetentionRace extends RetentionRaceContract {
        RetentionRace() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Forks: a fork copies the chosen checkpoint into a new agent, records its origin, leaves the parent")
    class Forks extends ForkContract {
        Forks() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Read-only: a read-only provider reads everything, writes and creates nothing")
    class ReadOnly extends ReadOnlyContract {
        ReadOnly() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Agent summaries: one pass over the store says what the per-agent calls say")
    class AgentSummaries extends AgentSummaryContract {
        AgentSummaries() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Leases: one live owner per resource, takeover after expiry with a larger fencing token")
    class Leases extends LeaseContract {
        Leases() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Stale writers: a writer that states a superseded head is refused and stores nothing")
    class StaleWriters extends StaleWriterContract {
        StaleWriters() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Queues: native queues, when the provider has them, write each item by compare-and-set")
    class Queues extends QueueContract {
        Queues() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }

    @Nested
    @DisplayName("Lifecycle: after close() every call throws IllegalStateException")
    class Lifecycle extends LifecycleContract {
        Lifecycle() {
            super(StorageProviderCompatibilityKit.this.session);
        }
    }
}
