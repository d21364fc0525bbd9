package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.tck.providers.BrokenProviders;
import dev.agentpersistence.tck.providers.MinimalProvider;
import dev.agentpersistence.tck.providers.NoLookupProvider;
import dev.agentpersistence.tck.providers.ReferenceProvider;
import dev.agentpersistence.tck.providers.ReferenceStore;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs the kit through the JUnit Platform launcher against a correct provider, a minimal one and providers with one
 * defect each, and checks the verdicts: the kit passes the correct ones and fails every broken one on the contract it
 * breaks.
 */
class CompatibilityKitVerdictTest {

    /** A kit over providers that share one {@link ReferenceStore} per test. */
    abstract static class SharedStoreKit extends StorageProviderCompatibilityKit {
        private final ReferenceStore store = new ReferenceStore();
        private final Function<ReferenceStore, PersistenceStorageProvider<CheckpointFilter>> factory;

        SharedStoreKit(Function<ReferenceStore, PersistenceStorageProvider<CheckpointFilter>> factory) {
            this.factory = factory;
        }

        @Override
        protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
            return factory.apply(store);
        }
    }

    static final class ReferenceKit extends SharedStoreKit {
        ReferenceKit() {
            super(ReferenceProvider::new);
        }
    }

    /** Shells over one heap backend per test, writing with the settings the kit asks for. */
    static final class ShellKit extends StorageProviderCompatibilityKit {
        private final TestHeapBackend backend = new TestHeapBackend();

        @Override
        protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
            return dev.agentpersistence.storage.StorageShell.builder(backend).build();
        }

        @Override
        protected PersistenceStorageProvider<CheckpointFilter> createProvider(
                dev.agentpersistence.storage.StorageSettings settings) {
            return dev.agentpersistence.storage.StorageShell.builder(backend)
                    .settings(settings)
                    .build();
        }

        /** The heap records as a dump would show them: attributes and stored bytes, segments too. */
        @Override
        protected byte[] dumpStorage() {
            var out = new java.io.ByteArrayOutputStream();
            backend.records
                    .values()
                    .forEach(versions -> versions.values().forEach(r -> {
                        out.writeBytes((r.agentId() + r.checkpointId() + r.nodeId() + r.metadata())
                                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
                        out.writeBytes(r.document());
                    }));
            backend.segments.values().forEach(bySegment -> bySegment.values().forEach(out::writeBytes));
            backend.queues
                    .queues
                    .values()
                    .forEach(items -> items.values().forEach(item -> out.writeBytes(item.body())));
            return out.toByteArray();
        }
    }

    /** A storage shell whose backend's queue store overwrites an item whatever version is stored. */
    static final class QueueOverwritesKit extends StorageProviderCompatibilityKit {
        private final TestHeapBackend backend = new TestHeapBackend(true, false, new TestHeapQueues(false));

        @Override
        protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
            return dev.agentpersistence.storage.StorageShell.builder(backend).build();
        }
    }

    /** A store that appears once opened: {@code creates} tells whether opening it read-only creates it anyway. */
    private static AbsentStore heapAbsentStore(boolean creates) {
        var created = new java.util.concurrent.atomic.AtomicBoolean();
        return new AbsentStore() {
            @Override
            public PersistenceStorageProvider<CheckpointFilter> open(
                    dev.agentpersistence.storage.StorageSettings settings) {
                if (settings.readOnly() && !creates) {
                    throw new dev.agentpersistence.StorageNotFoundException("heap store 'absent' does not exist");
                }
                created.set(true);
                return dev.agentpersistence.storage.StorageShell.builder(new TestHeapBackend())
                        .settings(settings)
                        .build();
            }

            @Override
            public boolean exists() {
                return created.get();
            }
        };
    }

    static final class ReadOnlyShellKit extends StorageProviderCompatibilityKit {
        private final ShellKit shell = new ShellKit();

        @Override
        protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
            return shell.createProvider();
        }

        @Override
        protected PersistenceStorageProvider<CheckpointFilter> createProvider(
                dev.agentpersistence.storage.StorageSettings settings) {
            return shell.createProvider(settings);
        }

        @Override
        protected byte[] dumpStorage() {
            return shell.dumpStorage();
        }

        @Override
        protected AbsentStore absentStore() {
            return heapAbsentStore(false);
        }
    }

    static final class CreatesAbsentStoreKit extends StorageProviderCompatibilityKit {
        private final ShellKit shell = new ShellKit();

        @Override
        protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
            return shell.createProvider();
        }

        @Override
        protected PersistenceStorageProvider<CheckpointFilter> createProvider(
                dev.agentpersistence.storage.StorageSettings settings) {
            return shell.createProvider(settings);
        }

        @Override
        protected byte[] dumpStorage() {
            return shell.dumpStorage();
        }

        @Override
        protected AbsentStore absentStore() {
            return heapAbsentStore(true);
        }
    }

    static final class NoLookupKit extends SharedStoreKit {
        NoLookupKit() {
            super(NoLookupProvider::new);
        }
    }

    static final class MinimalKit extends SharedStoreKit {
        MinimalKit() {
            super(MinimalProvider::new);
        }
    }

    /** Claims shared storage but gives every instance its own. */
    static final class InstancesDoNotShareKit extends StorageProviderCompatibilityKit {
        @Override
        protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
            return new ReferenceProvider(new ReferenceStore());
        }
    }

    /** Fails in {@code createProvider()} with a checked exception. */
    static final class UnavailableKit extends StorageProviderCompatibilityKit {
        @Override
        protected PersistenceStorageProvider<CheckpointFilter> createProvider() throws Exception {
            throw new java.io.IOException("backend unreachable");
        }
    }

    static final class IgnoresLimitKit extends SharedStoreKit {
        IgnoresLimitKit() {
            super(BrokenProviders.IgnoresLimit::new);
        }
    }

    static final class LimitBeforeFilterKit extends SharedStoreKit {
        LimitBeforeFilterKit() {
            super(BrokenProviders.LimitBeforeFilter::new);
        }
    }

    static final class DescendingOrderKit extends SharedStoreKit {
        DescendingOrderKit() {
            super(BrokenProviders.DescendingOrder::new);
        }
    }

    static final class ReturnsLiveListKit extends SharedStoreKit {
        ReturnsLiveListKit() {
            super(BrokenProviders.ReturnsLiveList::new);
        }
    }

    static final class TextualVersionOrderKit extends SharedStoreKit {
        TextualVersionOrderKit() {
            super(BrokenProviders.TextualVersionOrder::new);
        }
    }

    static final class LatestIgnoresFilterKit extends SharedStoreKit {
        LatestIgnoresFilterKit() {
            super(BrokenProviders.LatestIgnoresFilter::new);
        }
    }

    static final class OverwritesOnConflictKit extends SharedStoreKit {
        OverwritesOnConflictKit() {
            super(BrokenProviders.OverwritesOnConflict::new);
        }
    }

    static final class NoIdConflictCheckKit extends SharedStoreKit {
        NoIdConflictCheckKit() {
            super(BrokenProviders.NoIdConflictCheck::new);
        }
    }

    static final class ResaveConflictsKit extends SharedStoreKit {
        ResaveConflictsKit() {
            super(BrokenProviders.ResaveConflicts::new);
        }
    }

    static final class NotThreadSafeOnConflictKit extends SharedStoreKit {
        NotThreadSafeOnConflictKit() {
            super(BrokenProviders.NotThreadSafeOnConflict::new);
        }
    }

    static final class LeaksBetweenAgentsKit extends SharedStoreKit {
        LeaksBetweenAgentsKit() {
            super(BrokenProviders.LeaksBetweenAgents::new);
        }
    }

    static final class CaseInsensitiveAgentsKit extends SharedStoreKit {
        CaseInsensitiveAgentsKit() {
            super(BrokenProviders.CaseInsensitiveAgents::new);
        }
    }

    static final class LookupAcrossAgentsKit extends SharedStoreKit {
        LookupAcrossAgentsKit() {
            super(BrokenProviders.LookupAcrossAgents::new);
        }
    }

    static final class IgnoresAgentMismatchKit extends SharedStoreKit {
        IgnoresAgentMismatchKit() {
            super(BrokenProviders.IgnoresAgentMismatch::new);
        }
    }

    static final class AcceptsInvalidIdsKit extends SharedStoreKit {
        AcceptsInvalidIdsKit() {
            super(BrokenProviders.AcceptsInvalidIds::new);
        }
    }

    static final class CreatedBeforeInclusiveKit extends SharedStoreKit {
        CreatedBeforeInclusiveKit() {
            super(BrokenProviders.CreatedBeforeInclusive::new);
        }
    }

    static final class CreatedAfterExclusiveKit extends SharedStoreKit {
        CreatedAfterExclusiveKit() {
            super(BrokenProviders.CreatedAfterExclusive::new);
        }
    }

    static final class MillisecondTimeFilterKit extends SharedStoreKit {
        MillisecondTimeFilterKit() {
            super(BrokenProviders.MillisecondTimeFilter::new);
        }
    }

    static final class MaxVersionExclusiveKit extends SharedStoreKit {
        MaxVersionExclusiveKit() {
            super(BrokenProviders.MaxVersionExclusive::new);
        }
    }

    static final class NodeIdPrefixMatchKit extends SharedStoreKit {
        NodeIdPrefixMatchKit() {
            super(BrokenProviders.NodeIdPrefixMatch::new);
        }
    }

    static final class MetadataAnyMatchKit extends SharedStoreKit {
        MetadataAnyMatchKit() {
            super(BrokenProviders.MetadataAnyMatch::new);
        }
    }

    static final class TombstonesAlwaysIncludedKit extends SharedStoreKit {
        TombstonesAlwaysIncludedKit() {
            super(BrokenProviders.TombstonesAlwaysIncluded::new);
        }
    }

    static final class DropsNanosecondsKit extends SharedStoreKit {
        DropsNanosecondsKit() {
            super(BrokenProviders.DropsNanoseconds::new);
        }
    }

    static final class JsonNullBecomesNullKit extends SharedStoreKit {
        JsonNullBecomesNullKit() {
            super(BrokenProviders.JsonNullBecomesNull::new);
        }
    }

    static final class TruncatesHistoryKit extends SharedStoreKit {
        TruncatesHistoryKit() {
            super(BrokenProviders.TruncatesHistory::new);
        }
    }

    static final class TruncatesLargeTextKit extends SharedStoreKit {
        TruncatesLargeTextKit() {
            super(BrokenProviders.TruncatesLargeText::new);
        }
    }

    static final class DeleteBeforeInclusiveKit extends SharedStoreKit {
        DeleteBeforeInclusiveKit() {
            super(BrokenProviders.DeleteBeforeInclusive::new);
        }
    }

    static final class DeleteCountsZeroKit extends SharedStoreKit {
        DeleteCountsZeroKit() {
            super(BrokenProviders.DeleteCountsZero::new);
        }
    }

    static final class StaleIdsAfterDeleteKit extends SharedStoreKit {
        StaleIdsAfterDeleteKit() {
            super(BrokenProviders.StaleIdsAfterDelete::new);
        }
    }

    static final class ListAgentsUnsortedKit extends SharedStoreKit {
        ListAgentsUnsortedKit() {
            super(BrokenProviders.ListAgentsUnsorted::new);
        }
    }

    static final class ListAgentsKeepsEmptiedKit extends SharedStoreKit {
        ListAgentsKeepsEmptiedKit() {
            super(BrokenProviders.ListAgentsKeepsEmptied::new);
        }
    }

    static final class UsableAfterCloseKit extends SharedStoreKit {
        UsableAfterCloseKit() {
            super(BrokenProviders.UsableAfterClose::new);
        }
    }

    static final class CloseNotIdempotentKit extends SharedStoreKit {
        CloseNotIdempotentKit() {
            super(BrokenProviders.CloseNotIdempotent::new);
        }
    }

    private static final Map<String, Class<?>> GROUPS = Map.ofEntries(
            Map.entry("EncryptionAtRest", StorageProviderCompatibilityKit.EncryptionAtRest.class),
            Map.entry("RoundTrip", StorageProviderCompatibilityKit.RoundTrip.class),
            Map.entry("Ordering", StorageProviderCompatibilityKit.Ordering.class),
            Map.entry("Latest", StorageProviderCompatibilityKit.Latest.class),
            Map.entry("Filters", StorageProviderCompatibilityKit.Filters.class),
            Map.entry("Limit", StorageProviderCompatibilityKit.Limit.class),
            Map.entry("Lookup", StorageProviderCompatibilityKit.Lookup.class),
            Map.entry("BatchSaves", StorageProviderCompatibilityKit.BatchSaves.class),
            Map.entry("Isolation", StorageProviderCompatibilityKit.Isolation.class),
            Map.entry("Identifiers", StorageProviderCompatibilityKit.Identifiers.class),
            Map.entry("Surrogates", StorageProviderCompatibilityKit.Surrogates.class),
            Map.entry("Messages", StorageProviderCompatibilityKit.Messages.class),
            Map.entry("Conflicts", StorageProviderCompatibilityKit.Conflicts.class),
            Map.entry("Concurrency", StorageProviderCompatibilityKit.Concurrency.class),
            Map.entry("SharedStorage", StorageProviderCompatibilityKit.SharedStorage.class),
            Map.entry("Arguments", StorageProviderCompatibilityKit.Arguments.class),
            Map.entry("Deletion", StorageProviderCompatibilityKit.Deletion.class),
            Map.entry("Tombstones", StorageProviderCompatibilityKit.Tombstones.class),
            Map.entry("Lifecycle", StorageProviderCompatibilityKit.Lifecycle.class),
            Map.entry("GrowingHistory", StorageProviderCompatibilityKit.GrowingHistory.class),
            Map.entry("HistoryVariants", StorageProviderCompatibilityKit.HistoryVariants.class),
            Map.entry("Retention", StorageProviderCompatibilityKit.Retention.class),
            Map.entry("Segments", StorageProviderCompatibilityKit.Segments.class),
            Map.entry("Blobs", StorageProviderCompatibilityKit.Blobs.class),
            Map.entry("AgentSummaries", StorageProviderCompatibilityKit.AgentSummaries.class),
            Map.entry("RetentionRace", StorageProviderCompatibilityKit.RetentionRace.class),
            Map.entry("Forks", StorageProviderCompatibilityKit.Forks.class),
            Map.entry("Leases", StorageProviderCompatibilityKit.Leases.class),
            Map.entry("StaleWriters", StorageProviderCompatibilityKit.StaleWriters.class),
            Map.entry("Queues", StorageProviderCompatibilityKit.Queues.class),
            Map.entry("ReadOnly", StorageProviderCompatibilityKit.ReadOnly.class));

    /** The read-only group's test that needs {@code createProvider(StorageSettings)}. */
    private static final String READ_ONLY_READS = "ReadOnly.readsEverythingAndChangesNothing";

    /** The read-only group's test that needs {@code absentStore()}. */
    private static final String READ_ONLY_ABSENT = "ReadOnly.anAbsentStoreIsATypedErrorAndStaysAbsent";

    /** The reason a provider without the hooks of the stored form (seed-style) gives for {@code test}, if any. */
    private static String hookReason(String test) {
        if (READ_MATRIX.contains(test) || test.equals(READ_ONLY_READS)) {
            return "createProvider(StorageSettings)";
        }
        if (test.startsWith("AgentSummaries.")) {
            return "shows no stored form";
        }
        if (test.startsWith("Blobs.") && !test.equals(BLOB_URL)) {
            return "stores no parts by reference";
        }
        if (test.startsWith("Queues.")) {
            return "Native queues not offered by";
        }
        return test.equals(READ_ONLY_ABSENT) ? "absentStore()" : null;
    }

    /** The tests that write with chosen settings, which a provider without a configurable stored form aborts. */
    private static final List<String> READ_MATRIX = List.of(
            "ReadMatrix.everyReaderReadsEveryWriter",
            "ReadMatrix.resaveAcrossConfigurations",
            "ReadMatrix.tieredThenLog",
            "ReadMatrix.encryptingReaderReadsPlainBlobNames",
            "EncryptionAtRest.aDumpShowsNoSavedValue",
            "EncryptionAtRest.filtersFindRecordsSavedBeforeEncryption",
            "EncryptionAtRest.filtersMatchAcrossKeyRotation");

    /**
     * The tests of the segment area, which a provider without a stored form ({@code storedForm()} empty, as for any
     * provider written straight against the three-method SPI) aborts.
     */
    private static List<String> segmentTests() {
        return allKitTests().stream()
                .filter(name -> name.startsWith("Segments."))
                .toList();
    }

    /** The one test of the blob group every provider passes: a URL that looks like a reference stays a URL. */
    private static final String BLOB_URL = "Blobs.urlLikeAReference";

    /** The tests of parts stored by reference, which a provider without a stored form aborts. */
    private static List<String> blobTests() {
        return allKitTests().stream()
                .filter(name -> name.startsWith("Blobs.") && !name.equals(BLOB_URL))
                .toList();
    }

    /** The tests of native queues, which a provider without them aborts. */
    private static List<String> queueTests() {
        return allKitTests().stream().filter(name -> name.startsWith("Queues.")).toList();
    }

    /** The tests of agent summaries, which a provider without a stored form aborts. */
    private static List<String> summaryTests() {
        return allKitTests().stream()
                .filter(name -> name.startsWith("AgentSummaries."))
                .toList();
    }

    /** Every test method the kit declares, as {@code Group.method}. */
    private static List<String> allKitTests() {
        var names = new ArrayList<String>();
        GROUPS.forEach((group, nested) -> {
            for (Class<?> type = nested.getSuperclass(); type != Contract.class; type = type.getSuperclass()) {
                for (var method : type.getDeclaredMethods()) {
                    if (method.isAnnotationPresent(Test.class)) {
                        names.add(group + "." + method.getName());
                    }
                }
            }
        });
        return names;
    }

    @Test
    @DisplayName("the kit passes a correct provider: every test runs and passes, none is skipped")
    void passesReference() {
        var run = KitRun.of(ReferenceKit.class);
        assertThat(run.failed()).as(run.summary()).isEmpty();
        var unsupported = new ArrayList<>(READ_MATRIX);
        unsupported.addAll(segmentTests());
        unsupported.addAll(summaryTests());
        unsupported.addAll(blobTests());
        unsupported.addAll(queueTests());
        unsupported.add(READ_ONLY_READS);
        unsupported.add(READ_ONLY_ABSENT);
        assertThat(run.aborted()).as(run.summary()).containsOnlyKeys(unsupported);
        run.aborted()
                .forEach((test, reason) -> assertThat(reason)
                        .as(test)
                        .contains(hookReason(test) != null ? hookReason(test) : "History segments not supported by"));
        assertThat(run.containerFailures()).as(run.summary()).isEmpty();
        var runnable = new ArrayList<>(allKitTests());
        runnable.removeAll(unsupported);
        assertThat(run.passed()).containsExactlyInAnyOrderElementsOf(runnable);
        assertThat(run.total()).isGreaterThanOrEqualTo(75);
    }

    @Test
    @DisplayName("the read matrix runs on a provider built on the storage shell: every writer read by every reader")
    void readMatrixRunsOnAStorageShell() {
        var run = KitRun.of(ShellKit.class, List.of(StorageProviderCompatibilityKit.ReadMatrix.class));
        assertThat(run.failed()).as(run.summary()).isEmpty();
        assertThat(run.aborted()).as(run.summary()).isEmpty();
        assertThat(run.containerFailures()).as(run.summary()).isEmpty();
        assertThat(run.passed()).as(run.summary()).hasSizeGreaterThanOrEqualTo(49);
    }

    @Test
    @DisplayName("the read-only group runs on a provider built on the storage shell with dump and absent-store hooks")
    void readOnlyRunsOnAStorageShell() {
        var run = KitRun.of(ReadOnlyShellKit.class, List.of(StorageProviderCompatibilityKit.ReadOnly.class));
        assertThat(run.failed()).as(run.summary()).isEmpty();
        assertThat(run.aborted()).as(run.summary()).isEmpty();
        assertThat(run.passed()).as(run.summary()).containsExactlyInAnyOrder(READ_ONLY_READS, READ_ONLY_ABSENT);
    }

    @Test
    @DisplayName("the read-only group fails a provider that creates an absent store instead of refusing it")
    void readOnlyFailsAProviderCreatingAnAbsentStore() {
        var run = KitRun.of(CreatesAbsentStoreKit.class, List.of(StorageProviderCompatibilityKit.ReadOnly.class));
        assertThat(run.failed()).as(run.summary()).containsOnlyKeys(READ_ONLY_ABSENT);
        assertThat(run.passed()).as(run.summary()).containsExactly(READ_ONLY_READS);
    }

    @Test
    @DisplayName("the queue group runs on a provider built on the storage shell whose backend has queues")
    void queuesRunOnAStorageShell() {
        var run = KitRun.of(ShellKit.class, List.of(StorageProviderCompatibilityKit.Queues.class));
        assertThat(run.failed()).as(run.summary()).isEmpty();
        assertThat(run.aborted()).as(run.summary()).isEmpty();
        assertThat(run.passed()).as(run.summary()).containsExactlyInAnyOrderElementsOf(queueTests());
    }

    @Test
    @DisplayName("the queue group fails a queue store whose writes ignore the stored version")
    void queuesFailAnOverwritingQueueStore() {
        var run = KitRun.of(QueueOverwritesKit.class, List.of(StorageProviderCompatibilityKit.Queues.class));
        assertThat(run.failed()).as(run.summary()).containsOnlyKeys("Queues.compareAndSet", "Queues.racingWriters");
    }

    @Test
    @DisplayName("the encryption-at-rest group runs on a provider built on the storage shell with a dump hook")
    void encryptionAtRestRunsOnAStorageShell() {
        var run = KitRun.of(ShellKit.class, List.of(StorageProviderCompatibilityKit.EncryptionAtRest.class));
        assertThat(run.failed()).as(run.summary()).isEmpty();
        assertThat(run.aborted()).as(run.summary()).isEmpty();
        assertThat(run.passed()).as(run.summary()).hasSize(3);
    }

    @Test
    @DisplayName(
            "a provider with only the three abstract methods passes, and every left-out operation shows as aborted "
                    + "with its reason")
    void minimalProviderAbortsUnsupported() {
        var run = KitRun.of(MinimalKit.class);
        assertThat(run.failed()).as(run.summary()).isEmpty();
        assertThat(run.containerFailures()).as(run.summary()).isEmpty();
        assertThat(run.aborted().keySet())
                .contains(
                        "Deletion.deleteAgent",
                        "Deletion.deleteBeforeStrictlyBelow",
                        "Deletion.listAgentsSortedAndPruned",
                        "Deletion.invalidIds",
                        "Isolation.deletionStaysInside",
                        "Identifiers.listAgentsHostile",
                        "SharedStorage.deletionsAcrossInstances",
                        "Lifecycle.useAfterClose",
                        "Lifecycle.closeTwice");
        run.aborted()
                .forEach((test, reason) -> assertThat(reason)
                        .as(test)
                        .contains(
                                hookReason(test) != null
                                        ? hookReason(test)
                                        : "not supported by " + MinimalProvider.class.getName()));
        assertThat(run.aborted().get("Deletion.deleteAgent")).startsWith("deleteCheckpoints not supported by");
        assertThat(run.aborted().get("Lifecycle.closeTwice")).startsWith("close() not supported by");
        assertThat(run.passed())
                .contains(
                        "RoundTrip.everyField",
                        "Conflicts.sameVersionOtherContent",
                        "Concurrency.oneWinnerPerVersion",
                        "Identifiers.invalidAgentIds");
    }

    @Test
    @DisplayName(
            "a provider whose getCheckpoint is unsupported loses exactly the tests of lookups by id, shown as aborted")
    void unsupportedLookupAbortsOnlyLookups() {
        var run = KitRun.of(NoLookupKit.class);
        assertThat(run.failed()).as(run.summary()).isEmpty();
        var lookupTests = allKitTests().stream()
                .filter(name ->
                        name.startsWith("Lookup.") || name.startsWith("Forks.") || name.equals("GrowingHistory.byId"))
                .toList();
        var aborted = new java.util.TreeMap<>(run.aborted());
        READ_MATRIX.forEach(aborted::remove); // no configurable stored form, as for every seed-style provider
        segmentTests().forEach(aborted::remove); // nor a segment area
        summaryTests().forEach(aborted::remove); // nor agent summaries, which read the stored form
        blobTests().forEach(aborted::remove); // nor a blob area
        queueTests().forEach(aborted::remove); // nor native queues
        aborted.remove(READ_ONLY_READS); // nor a read-only mode
        aborted.remove(READ_ONLY_ABSENT);
        assertThat(aborted.keySet()).containsExactlyInAnyOrderElementsOf(lookupTests);
        aborted.values()
                .forEach(reason -> assertThat(reason)
                        .contains("not supported by " + NoLookupProvider.class.getName())
                        .contains("lookups by id are not indexed by this backend"));
    }

    @Test
    @DisplayName("failures name the provider test class, since reports file them under the kit's group classes")
    void failuresNameTheProviderTest() {
        var run = KitRun.of(IgnoresLimitKit.class, List.of(StorageProviderCompatibilityKit.Limit.class));
        assertThat(run.failed().get("Limit.newestAscending")).isNotNull().hasMessageStartingWith("[IgnoresLimitKit] ");
    }

    @Test
    @DisplayName("when createProvider() throws, every test fails with that cause instead of passing")
    void unavailableProviderFails() {
        var run = KitRun.of(UnavailableKit.class, List.of(StorageProviderCompatibilityKit.RoundTrip.class));
        assertThat(run.passed()).isEmpty();
        assertThat(run.failed()).isNotEmpty();
        run.failed().values().forEach(failure -> assertThat(failure).hasRootCauseMessage("backend unreachable"));
    }

    static Stream<Arguments> brokenProviders() {
        return Stream.of(
                broken(
                        IgnoresLimitKit.class,
                        "Limit.newestAscending",
                        "Limit.limitAfterOtherFields",
                        "Filters.everyCombination"),
                broken(LimitBeforeFilterKit.class, "Limit.limitAfterOtherFields", "Filters.everyCombination"),
                broken(
                        DescendingOrderKit.class,
                        "Ordering.ascendingWhateverSaveOrder",
                        "Ordering.numericOrder",
                        "Filters.nullFilterMeansAll",
                        "RoundTrip.nanoseconds"),
                broken(TextualVersionOrderKit.class, "Ordering.numericOrder"),
                broken(ReturnsLiveListKit.class, "Ordering.snapshots"),
                broken(LatestIgnoresFilterKit.class, "Latest.filtered", "Latest.agreesWithList", "Tombstones.excluded"),
                broken(
                        OverwritesOnConflictKit.class,
                        "Conflicts.sameVersionOtherContent",
                        "Conflicts.smallDifferences",
                        "Concurrency.oneWinnerPerVersion",
                        "SharedStorage.conflictsAcrossInstances",
                        "StaleWriters.racingWritersAfterOneHead",
                        "StaleWriters.writersExpectingANewAgent"),
                broken(NoIdConflictCheckKit.class, "Conflicts.sameIdOtherVersion"),
                broken(ResaveConflictsKit.class, "Conflicts.identicalResave", "Concurrency.identicalRacersAllSucceed"),
                broken(
                        NotThreadSafeOnConflictKit.class,
                        "Concurrency.oneWinnerPerVersion",
                        "SharedStorage.raceAcrossInstances"),
                broken(LeaksBetweenAgentsKit.class, "Isolation.prefixes", "Identifiers.hostileAgentIds"),
                broken(CaseInsensitiveAgentsKit.class, "Identifiers.nearDuplicates"),
                broken(LookupAcrossAgentsKit.class, "Lookup.otherAgent"),
                broken(IgnoresAgentMismatchKit.class, "Arguments.mismatchedAgent"),
                broken(AcceptsInvalidIdsKit.class, "Identifiers.invalidAgentIds"),
                broken(
                        CreatedBeforeInclusiveKit.class,
                        "Filters.createdBeforeExclusive",
                        "Filters.createdRange",
                        "Filters.nanosecondBounds"),
                broken(CreatedAfterExclusiveKit.class, "Filters.createdAfterInclusive", "Filters.createdRange"),
                broken(MillisecondTimeFilterKit.class, "Filters.nanosecondBounds"),
                broken(MaxVersionExclusiveKit.class, "Filters.maxVersionInclusive", "Latest.filtered"),
                broken(NodeIdPrefixMatchKit.class, "Filters.nodeId"),
                broken(MetadataAnyMatchKit.class, "Filters.metadataAllMustMatch"),
                broken(TombstonesAlwaysIncludedKit.class, "Filters.tombstones", "Tombstones.excluded"),
                broken(DropsNanosecondsKit.class, "RoundTrip.nanoseconds", "RoundTrip.everyField"),
                broken(JsonNullBecomesNullKit.class, "RoundTrip.nullVersusJsonNull"),
                broken(TruncatesHistoryKit.class, "RoundTrip.longHistory"),
                broken(TruncatesLargeTextKit.class, "RoundTrip.largeState"),
                broken(DeleteBeforeInclusiveKit.class, "Deletion.deleteBeforeStrictlyBelow"),
                broken(DeleteCountsZeroKit.class, "Deletion.deleteAgent"),
                broken(StaleIdsAfterDeleteKit.class, "Deletion.reuseAfterDelete", "Deletion.reuseIdAfterRetention"),
                broken(
                        ListAgentsUnsortedKit.class,
                        "Deletion.listAgentsSortedAndPruned",
                        "Identifiers.listAgentsHostile"),
                broken(ListAgentsKeepsEmptiedKit.class, "Deletion.listAgentsSortedAndPruned"),
                broken(UsableAfterCloseKit.class, "Lifecycle.useAfterClose", "Lifecycle.closeTwice"),
                broken(CloseNotIdempotentKit.class, "Lifecycle.closeTwice"),
                broken(
                        InstancesDoNotShareKit.class,
                        "SharedStorage.secondInstanceSeesSaves",
                        "SharedStorage.conflictsAcrossInstances"));
    }

    private static Arguments broken(Class<? extends StorageProviderCompatibilityKit> kit, String... expectedFailures) {
        return Arguments.of(kit.getSimpleName().replace("Kit", ""), kit, List.of(expectedFailures));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenProviders")
    @DisplayName("the kit fails a broken provider on the contract it breaks")
    void failsBrokenProvider(
            String defect, Class<? extends StorageProviderCompatibilityKit> kit, List<String> expected) {
        var groups = new LinkedHashSet<Class<?>>();
        for (String test : expected) {
            groups.add(GROUPS.get(test.substring(0, test.indexOf('.'))));
        }
        var run = KitRun.of(kit, new ArrayList<>(groups));
        assertThat(run.failed().keySet())
                .as("tests failing for %s%n%s", defect, run.summary())
                .containsAll(expected);
    }
}
