package dev.agentpersistence.storage;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.ReadOnlyStorageException;
import dev.agentpersistence.SaveResult;
import dev.agentpersistence.StorageConfigurationException;
import dev.agentpersistence.backend.AgentSummary;
import dev.agentpersistence.backend.BackendContext;
import dev.agentpersistence.backend.BackendOpener;
import dev.agentpersistence.backend.BlobArea;
import dev.agentpersistence.backend.CandidateScan;
import dev.agentpersistence.backend.DocumentIdentity;
import dev.agentpersistence.backend.ExpectedHead;
import dev.agentpersistence.backend.Expiry;
import dev.agentpersistence.backend.HistorySegmentStore;
import dev.agentpersistence.backend.InsertResult;
import dev.agentpersistence.backend.StorageBackend;
import dev.agentpersistence.backend.StoredCheckpoint;
import dev.agentpersistence.backend.StoredDocument;
import dev.agentpersistence.backend.StoredForm;
import dev.agentpersistence.backend.WrittenForm;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.codec.CheckpointLocation;
import dev.agentpersistence.codec.DocumentLayers;
import dev.agentpersistence.codec.LayeredCheckpointCodec;
import dev.agentpersistence.history.internal.ChainCache;
import dev.agentpersistence.history.internal.ChainHasher;
import dev.agentpersistence.history.internal.ForkStart;
import dev.agentpersistence.history.internal.HistoryReader;
import dev.agentpersistence.history.internal.HistoryWriter;
import dev.agentpersistence.history.internal.LogWriter;
import dev.agentpersistence.history.internal.ReservedMetadata;
import dev.agentpersistence.history.internal.SegmentCodec;
import dev.agentpersistence.history.internal.SegmentCollector;
import dev.agentpersistence.internal.CheckpointContent;
import dev.agentpersistence.internal.HeadCondition;
import dev.agentpersistence.internal.StorageChecks;
import dev.agentpersistence.metrics.StorageMetricNames;
import dev.agentpersistence.observation.AgentObservationContext;
import dev.agentpersistence.observation.StorageOperation;
import dev.agentpersistence.observation.internal.Observer;
import dev.agentpersistence.queue.QueueStore;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import dev.agentpersistence.storage.internal.AgentSummaries;
import dev.agentpersistence.storage.internal.BlobCodec;
import dev.agentpersistence.storage.internal.BlobCollector;
import dev.agentpersistence.storage.internal.BlobVault;
import dev.agentpersistence.storage.internal.CheckedQueueStore;
import dev.agentpersistence.storage.internal.CheckedSegmentStore;
import dev.agentpersistence.storage.internal.DecodedDocuments;
import dev.agentpersistence.storage.internal.DocumentDecoder;
import dev.agentpersistence.storage.internal.FilterAttributes;
import dev.agentpersistence.storage.internal.NoSegments;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.ObservationRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one storage shell: a {@link PersistenceStorageProvider} over any {@link StorageBackend}. It owns everything but
 * the bytes: id and argument checks, the closed state, the stored form (versioned JSON inside checksum, compression and
 * encryption layers, bounded reads), the filter attributes, the conflict protocol, time to live, incremental history,
 * garbage collection of history segments, observation of every operation, and typed errors naming agent, checkpoint and
 * location. It is the only provider class the project ships for storage: every backend module hands the shell's
 * {@link Builder} a {@link BackendOpener} (its entry point, e.g. {@code JdbcStorage.builder(config)}), in code or by
 * discovery alike, so all of them read and behave the same way.
 *
 * <p><b>Reading</b> follows the stored bytes, never the settings: a document with or without each layer, with its whole
 * history inline or in segments, reads back complete, or fails with a {@link CorruptCheckpointException} (an
 * {@link dev.agentpersistence.EncryptionKeyException} when the key is missing) naming agent, checkpoint and location; a
 * checkpoint is never returned in part.
 *
 * <p><b>Saving</b> writes the form {@link StorageSettings} choose. A save meeting a stored checkpoint with the same
 * version or id returns normally when both have the same content (an idempotent retry) and throws
 * {@link CheckpointConflictException} otherwise; nothing is ever overwritten.
 *
 * <pre>{@code
 * PersistenceStorageProvider<CheckpointFilter> storage = StorageShell.builder(new MyBackend(...))
 *         .settings(StorageSettings.custom().ttl(Duration.ofDays(7)).build())
 *         .build();
 * }</pre>
 *
 * Thread-safe. Metadata keys starting with {@value ReservedMetadata#PREFIX} are reserved for the stored form and
 * refused with {@link IllegalArgumentException}.
 */
public final class StorageShell implements PersistenceStorageProvider<CheckpointFilter> {

    private static final String DESCRIPTOR_KEY = ReservedMetadata.DESCRIPTOR_KEY;
    /** Inserts repeated when the clashing records vanish in between (a concurrent trim or delete). */
    private static final int MAX_INSERT_ATTEMPTS = 12;

    private static final int LAST_READ_AGENTS = 1024;

    private final StorageBackend backend;
    private final String providerName;
    private final Observer observer;
    private final Map<StorageOperation, KeyValues> operationKeys;
    private final StorageSettings settings;
    private final Clock clock;
    private final LayeredCheckpointCodec codec;
    private final Optional<QueueStore> queues;
    /** The codec of records and segments: {@link #codec}, with parts by reference where the store keeps blobs. */
    private final CheckpointCodec storedCodec;
    /** Writes the record of a checkpoint whose history is in the log. */
    private final Function<AgentCheckpoint, byte[]> recordCodec;
    /** Decodes records without resolving parts stored by reference, for garbage collection. */
    private final DocumentDecoder storedForms;

    private final BlobVault blobs;
    private final BlobCollector blobCollector;
    private final AutoCloseable blobStore;
    private final DocumentDecoder documents;
    private final FilterAttributes attributes;
    private final HistorySegmentStore segments;
    private final boolean writesSegments;
    private final ChainCache cache;
    /** The checkpoint latest last returned per agent, and the record it came from. */
    private final DecodedDocuments lastRead;

    private final HistoryWriter writer;
    private final LogWriter logWriter;
    private final ForkStart forkStart;
    private final boolean logLayout;
    private final HistoryReader reader;
    private final SegmentCollector collector;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final boolean readOnly;
    private final boolean hasSegments;
    private final StoredForm storedForm = new ShellStoredForm();
    private final Optional<Expiry> expiry;
    private final Optional<CandidateScan> candidateScan;
    private final AgentSummaries summaries;

    private StorageShell(
            StorageBackend backend,
            StorageSettings settings,
            Clock clock,
            ObservationRegistry observations,
            String providerName,
            BlobArea blobArea,
            AutoCloseable blobStore) {
        this.blobStore = blobStore;
        this.backend = Objects.requireNonNull(backend, "backend");
        this.providerName = providerName != null ? providerName : defaultName(backend);
        this.observer = Observer.of(observations);
        this.operationKeys = new EnumMap<>(StorageOperation.class);
        for (StorageOperation operation : StorageOperation.values()) {
            operationKeys.put(
                    operation,
                    KeyValues.of(
                            StorageMetricNames.TAG_PROVIDER,
                            this.providerName,
                            StorageMetricNames.TAG_OPERATION,
                            operation.tag()));
        }
        this.settings = Objects.requireNonNull(settings, "settings");
        this.readOnly = settings.readOnly();
        this.clock = Objects.requireNonNull(clock, "clock");
        this.expiry = backend.expiry();
        this.candidateScan = backend.candidateScan();
        if (settings.ttl().isPresent() && expiry.isEmpty()) {
            throw new IllegalArgumentException("A time to live is set but " + backend + " does not keep expiry times");
        }
        this.codec = settings.codec();
        this.attributes = FilterAttributes.of(settings.layers());
        this.queues = backend.queues()
                .map(store -> new CheckedQueueStore(
                        store, codec.layers(), settings.maxCheckpointSize(), this::requireOpen, this::requireWritable));
        Optional<HistorySegmentStore> area = backend.segments();
        this.hasSegments = area.isPresent();
        this.segments =
                new CheckedSegmentStore(area.orElseGet(NoSegments::new), this::requireOpen, this::requireWritable);
        var history = settings.history();
        BlobArea blobsAt = blobArea != null
                ? blobArea
                : hasSegments ? new BlobArea(segments, BlobVault.AGENT_ID, backend.describe()) : null;
        this.blobs = blobsAt == null
                ? null
                : new BlobVault(blobsAt, codec.layers(), settings.maxCheckpointSize(), clock, history.gracePeriod());
        // reading follows the stored bytes: every shell with a blob area resolves references, whatever it writes;
        // with a time to live parts stay inline, since a blob shared by agents has no single expiry to follow
        boolean writesReferences = settings.blobThreshold() > 0
                && settings.formatVersion() > 1
                && settings.ttl().isEmpty();
        BlobCodec blobCodec = blobs == null
                ? null
                : new BlobCodec(
                        codec,
                        blobs,
                        writesReferences ? settings.blobThreshold() : Long.MAX_VALUE,
                        settings.maxCheckpointSize());
        this.storedCodec = blobCodec == null ? codec : blobCodec;
        this.recordCodec = blobCodec == null
                ? codec::encodeRecord
                : checkpoint -> blobCodec.encode(checkpoint, codec::encodeRecord);
        this.documents = new DocumentDecoder(backend, storedCodec, settings.maxCheckpointSize());
        this.storedForms = new DocumentDecoder(backend, codec, settings.maxCheckpointSize());
        this.summaries = new AgentSummaries(
                backend,
                (agentId, document) ->
                        decode(agentId, List.of(document)).stream().findFirst(),
                agentId -> latestCheckpoint(agentId, CheckpointFilter.ALL));
        this.lastRead = DecodedDocuments.learning(LAST_READ_AGENTS);
        this.writesSegments = settings.incrementalHistory() && area.isPresent();
        // format 1 stores no message ids: the cache would hand back ids a reader elsewhere cannot see
        boolean idsStored = settings.formatVersion() > 1;
        this.cache = new ChainCache(history.cachedAgents(), idsStored ? history.cachedMessages() : 0);
        var segmentCodec = blobCodec == null ? new SegmentCodec(codec) : new SegmentCodec(codec, blobCodec, blobCodec);
        this.writer = new HistoryWriter(
                segments,
                segmentCodec,
                new ChainHasher(idsStored),
                cache,
                clock,
                history.blockSize(),
                history.tierSizes(),
                history.gracePeriod(),
                DESCRIPTOR_KEY);
        this.logWriter = new LogWriter(
                segmentCodec,
                new ChainHasher(idsStored),
                cache,
                clock,
                history.blockSize(),
                history.gracePeriod(),
                DESCRIPTOR_KEY);
        // readers of format 1 predate the message log
        this.logLayout = history.logLayout() && idsStored;
        this.reader =
                new HistoryReader(segments, cache, segmentCodec, new ChainHasher(), DESCRIPTOR_KEY, backend.toString());
        this.collector = new SegmentCollector(new UndecodedView(), segments, reader);
        this.forkStart = new ForkStart(cache, this::checkpoint);
        this.blobCollector = blobs == null
                ? null
                : new BlobCollector(
                        blobs.area(),
                        blobs.names(),
                        this::agentsWithRecords,
                        agentId -> storedForms(agentId),
                        segments,
                        new SegmentCodec(codec),
                        backend.describe());
    }

    /** Every agent with checkpoints or segments, but the blob area's own id. */
    private List<String> agentsWithRecords() {
        var agents = new java.util.TreeSet<>(backend.listAgents());
        if (hasSegments) {
            agents.addAll(segments.listSegmentAgents());
        }
        agents.remove(BlobVault.AGENT_ID);
        return List.copyOf(agents);
    }

    /** The agent's stored checkpoints, decoded without resolving the parts they hold by reference. */
    private List<AgentCheckpoint> storedForms(String agentId) {
        return backend.list(agentId, CheckpointFilter.ALL).stream()
                .map(record -> storedForms.decode(agentId, record))
                .toList();
    }

    /** The backend's class name without a {@code StorageBackend} or {@code Backend} suffix, in lower case. */
    private static String defaultName(StorageBackend backend) {
        String name = withoutSuffix(backend.getClass().getSimpleName());
        return name.isEmpty() ? "custom" : name.toLowerCase(Locale.ROOT);
    }

    /** {@code name} without a final {@code StorageBackend}, else without a final {@code Backend}. */
    private static String withoutSuffix(String name) {
        for (String suffix : new String[] {"StorageBackend", "Backend"}) {
            if (name.endsWith(suffix)) {
                return name.substring(0, name.length() - suffix.length());
            }
        }
        return name;
    }

    /**
     * A builder over a backend that is already open: a custom backend, or a test's. The settings' time to live, maximum
     * size and skip-corrupt reach such a backend only if it was built with them; backend modules hand an
     * {@link BackendOpener} instead.
     */
    public static Builder builder(StorageBackend backend) {
        Objects.requireNonNull(backend, "backend");
        return new Builder(context -> backend);
    }

    /** A builder that opens its backend with {@code opener}, handing it the shell's {@link BackendContext} once. */
    public static Builder builder(BackendOpener opener) {
        return new Builder(Objects.requireNonNull(opener, "opener"));
    }

    @Override
    public Optional<StoredForm> storedForm() {
        return Optional.of(storedForm);
    }

    @Override
    public Optional<QueueStore> queues() {
        return queues;
    }

    @Override
    public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
        observe(StorageOperation.SAVE, context -> save(agentId, checkpoint, Insert.PLAIN, context));
    }

    /**
     * The backend's {@link StorageBackend#insertAfter}: the check of the head and the insert are one step, so a
     * checkpoint built on a head that a deletion removed is never stored.
     */
    @Override
    public void saveCheckpointAfter(
            String agentId, Optional<AgentCheckpoint> expectedHead, AgentCheckpoint checkpoint) {
        HeadCondition.require(agentId, expectedHead, checkpoint);
        var insert = new Insert(expectedHead.map(head -> new ExpectedHead(head.checkpointId(), head.version())));
        observe(StorageOperation.SAVE, context -> save(agentId, checkpoint, insert, context));
    }

    /**
     * How a save inserts: {@link StorageBackend#insert}, or, with an expected head, {@link StorageBackend#insertAfter}.
     *
     * @param expected {@code null} for a plain insert; else the head the writer read (empty: no checkpoint)
     */
    private record Insert(Optional<ExpectedHead> expected) {
        static final Insert PLAIN = new Insert(null);

        InsertResult into(StorageBackend backend, StoredCheckpoint record, Map<String, byte[]> logEntries) {
            if (expected != null) {
                return backend.insertAfter(expected, record, logEntries);
            }
            return logEntries.isEmpty() ? backend.insert(record) : backend.insert(record, logEntries);
        }
    }

    /**
     * Checks every checkpoint as {@link #saveCheckpoint} does before writing any, then writes them with one
     * {@link StorageBackend#insertAll}: one observation ({@link StorageOperation#SAVE_BATCH}) for the batch, recording
     * the bytes stored.
     */
    @Override
    public List<SaveResult> saveCheckpoints(List<AgentCheckpoint> checkpoints) {
        return observe(StorageOperation.SAVE_BATCH, context -> saveAll(checkpoints, context));
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
        return observe(StorageOperation.LIST, context -> checkpoints(agentId, filter));
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
        return observe(StorageOperation.LATEST, context -> latestCheckpoint(agentId, filter));
    }

    @Override
    public Optional<AgentCheckpoint> getCheckpoint(String agentId, String checkpointId) {
        return observe(StorageOperation.GET, context -> checkpoint(agentId, checkpointId));
    }

    @Override
    public int deleteCheckpoints(String agentId) {
        return observe(StorageOperation.DELETE_ALL, context -> deleteAll(agentId));
    }

    @Override
    public int deleteCheckpointsBefore(String agentId, long version) {
        return observe(StorageOperation.DELETE_BEFORE, context -> deleteBefore(agentId, version));
    }

    private <T> T observe(StorageOperation operation, Observer.Call<T> call) {
        return observer.observe(
                operation.observationName(), operation.contextualName(), operationKeys.get(operation), call);
    }

    private Void save(String agentId, AgentCheckpoint checkpoint, Insert insert, AgentObservationContext context) {
        requireOpen();
        requireWritable("saveCheckpoint");
        requireSavableCheckpoint(agentId, checkpoint);
        PreparedSave prepared = prepare(agentId, checkpoint);
        // the messages the cache holds were checked when they were saved, or read from the store
        requireUnreservedMessages(checkpoint.messageHistory(), prepared.cachedMessages());
        StoredCheckpoint record = prepared.record();
        Map<String, byte[]> logEntries = prepared.logEntries();
        putBaseSegments(prepared);
        InsertResult first = insert.into(backend, record, logEntries);
        stored(prepared);
        Outcome outcome = first.staleHead()
                ? refusedOnHead(checkpoint, insert.expected())
                : settle(checkpoint, record, first, insert);
        if (outcome.conflict() != null) {
            throw outcome.conflict();
        }
        if (context != null && outcome.bytesWritten() > 0) {
            context.bytesWritten(outcome.bytesWritten());
        }
        return null;
    }

    /**
     * Every check of a single save on every checkpoint first (nothing is written when one is invalid), then the
     * segments and records of all of them, the records in one {@link StorageBackend#insertAll}; each clash is decided
     * as a single save decides it.
     */
    private List<SaveResult> saveAll(List<AgentCheckpoint> checkpoints, AgentObservationContext context) {
        requireOpen();
        requireWritable("saveCheckpoints");
        Objects.requireNonNull(checkpoints, "checkpoints");
        for (AgentCheckpoint checkpoint : checkpoints) {
            Objects.requireNonNull(checkpoint, "checkpoint");
            requireSavable(checkpoint.agentId(), checkpoint);
        }
        var records = new ArrayList<StoredCheckpoint>(checkpoints.size());
        for (AgentCheckpoint checkpoint : checkpoints) {
            PreparedSave prepared = prepare(checkpoint.agentId(), checkpoint);
            putBaseSegments(prepared);
            prepared.logEntries().forEach((id, content) -> segments.putSegment(checkpoint.agentId(), id, content));
            stored(prepared); // the next checkpoint of the batch extends it
            records.add(prepared.record());
        }
        List<InsertResult> inserted = records.isEmpty() ? List.of() : backend.insertAll(records);
        if (inserted.size() != records.size()) {
            throw new PersistenceException(backend + " answered " + inserted.size() + " results for " + records.size()
                    + " records; nothing about their state is known");
        }
        var results = new ArrayList<SaveResult>(checkpoints.size());
        long written = 0;
        for (int i = 0; i < records.size(); i++) {
            AgentCheckpoint checkpoint = checkpoints.get(i);
            Outcome outcome = settle(checkpoint, records.get(i), inserted.get(i), Insert.PLAIN);
            written += outcome.bytesWritten();
            results.add(
                    outcome.conflict() == null
                            ? SaveResult.saved(checkpoint)
                            : SaveResult.conflicting(checkpoint, outcome.conflict()));
        }
        if (context != null && written > 0) {
            context.bytesWritten(written);
        }
        return List.copyOf(results);
    }

    private static void requireSavable(String agentId, AgentCheckpoint checkpoint) {
        requireSavableCheckpoint(agentId, checkpoint);
        requireUnreservedMessages(checkpoint.messageHistory(), 0);
    }

    private static void requireSavableCheckpoint(String agentId, AgentCheckpoint checkpoint) {
        StorageChecks.requireSaveArguments(agentId, checkpoint);
        ReservedMetadata.requireUnreserved(checkpoint.metadata(), "checkpoint metadata");
    }

    /** Refuses reserved metadata keys in the messages of {@code history} from {@code from} on. */
    private static void requireUnreservedMessages(List<Message> history, int from) {
        for (int i = from; i < history.size(); i++) {
            Map<String, String> metadata = history.get(i).metadata();
            if (!metadata.isEmpty()) {
                ReservedMetadata.requireUnreserved(metadata, "message metadata");
            }
        }
    }

    /**
     * A save ready to write: the record and the message log entries to store with it (before it or in the same write),
     * after which {@link #stored(PreparedSave)} tells the log writer.
     *
     * @param log what the log writer prepared, or {@code null} when the history is not in the log
     */
    private record PreparedSave(String agentId, StoredCheckpoint record, LogWriter.Prepared log) {
        Map<String, byte[]> logEntries() {
            return log == null ? Map.of() : log.segments();
        }

        int cachedMessages() {
            return log == null ? 0 : log.cachedMessages();
        }
    }

    /** Puts what {@code prepared} stores in other agents' logs (a fork's bases), before its own record. */
    private void putBaseSegments(PreparedSave prepared) {
        if (prepared.log() != null) {
            prepared.log()
                    .baseSegments()
                    .forEach((owner, stored) ->
                            stored.forEach((id, content) -> segments.putSegment(owner, id, content)));
        }
    }

    /** Tells the log writer that {@code prepared} is stored. */
    private void stored(PreparedSave prepared) {
        if (prepared.log() != null) {
            logWriter.stored(prepared.agentId(), prepared.log());
        }
    }

    /**
     * The record of {@code checkpoint} in the stored form: its long history in the message log (entries to store with
     * the record) or moved into tiered segments (written now).
     */
    private PreparedSave prepare(String agentId, AgentCheckpoint checkpoint) {
        AgentCheckpoint storedForm = checkpoint;
        LogWriter.Prepared log = null;
        if (writesSegments && logLayout) {
            ForkStart.Parent parent = forkStart.parent(agentId, checkpoint);
            log = parent == null
                    ? logWriter.prepare(agentId, checkpoint)
                    : logWriter.prepareFork(agentId, checkpoint, parent.agentId(), parent.log());
            storedForm = log.storedForm();
        } else if (writesSegments) {
            storedForm = writer.prepare(agentId, checkpoint);
        }
        return new PreparedSave(agentId, storedRecord(agentId, checkpoint, storedForm), log);
    }

    /** The record of {@code checkpoint}, whose stored form is {@code storedForm}. */
    private StoredCheckpoint storedRecord(String agentId, AgentCheckpoint checkpoint, AgentCheckpoint storedForm) {
        // a record whose history is stored elsewhere is short: compressed against the fields records share
        byte[] document = storedForm == checkpoint ? storedCodec.encode(storedForm) : recordCodec.apply(storedForm);
        Instant expiresAt = settings.ttl().map(ttl -> clock.instant().plus(ttl)).orElse(null);
        return new StoredCheckpoint(
                agentId,
                checkpoint.checkpointId(),
                checkpoint.version(),
                checkpoint.createdAt(),
                expiresAt,
                attributes.nodeId(checkpoint),
                checkpoint.isTombstone(),
                attributes.metadata(checkpoint),
                document);
    }

    /**
     * What a save of {@code record} came to, given the backend's answer to its first insert: stored, an idempotent
     * retry (the same content is stored), or a conflict. When the clashing records were deleted in between, the insert
     * is tried again.
     */
    private Outcome settle(AgentCheckpoint checkpoint, StoredCheckpoint record, InsertResult first, Insert insert) {
        String agentId = record.agentId();
        InsertResult result = first;
        for (int attempt = 1; ; attempt++) {
            if (result.inserted()) {
                return new Outcome(record.size(), null);
            }
            if (!result.existing().isEmpty()) {
                for (AgentCheckpoint existing : assemble(agentId, decodeStrictly(agentId, result.existing()))) {
                    if (!CheckpointContent.same(checkpoint, existing)) {
                        return new Outcome(0, CheckpointConflictException.of(agentId, checkpoint, existing));
                    }
                }
                return new Outcome(0, null);
            }
            if (attempt == MAX_INSERT_ATTEMPTS) {
                throw new PersistenceException("Saving checkpoint '" + checkpoint.checkpointId() + "' of agent '"
                        + agentId + "' kept colliding with records that were deleted concurrently ("
                        + MAX_INSERT_ATTEMPTS + " attempts), at "
                        + backend.location(agentId, checkpoint.checkpointId()));
            }
            // the clashing records were deleted in between: try again, after a short random pause once
            // several writers race for the freed version
            pauseBeforeRetry(attempt);
            result = insert.into(backend, record, Map.of());
            if (result.staleHead()) {
                return refusedOnHead(checkpoint, insert.expected());
            }
        }
    }

    /**
     * What a conditional save refused for its head came to: an idempotent repeat when the very checkpoint is stored (an
     * earlier attempt of the same save), else a conflict naming the agent's newest checkpoint.
     */
    private Outcome refusedOnHead(AgentCheckpoint checkpoint, Optional<ExpectedHead> expected) {
        String agentId = checkpoint.agentId();
        Optional<AgentCheckpoint> stored = checkpoint(agentId, checkpoint.checkpointId());
        if (stored.isPresent() && CheckpointContent.same(checkpoint, stored.get())) {
            return new Outcome(0, null);
        }
        Optional<AgentCheckpoint> newest = latestCheckpoint(agentId, CheckpointFilter.ALL);
        return new Outcome(
                0,
                HeadCondition.moved(
                        agentId, expected.map(ExpectedHead::toString).orElse(null), checkpoint, newest));
    }

    /** What one save came to: the bytes it stored (0 when it stored nothing), and its conflict or {@code null}. */
    private record Outcome(long bytesWritten, CheckpointConflictException conflict) {}

    private static void pauseBeforeRetry(int attempt) {
        if (attempt > 1) {
            long maxMicros = 100L << Math.min(attempt, 8);
            java.util.concurrent.locks.LockSupport.parkNanos(
                    java.util.concurrent.ThreadLocalRandom.current().nextLong(maxMicros) * 1_000L);
        }
    }

    private List<AgentCheckpoint> checkpoints(String agentId, CheckpointFilter filter) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        CheckpointFilter query = query(filter);
        if (walksInShell(query)) {
            return assemble(agentId, walk(agentId, query, query.limit() == null ? Integer.MAX_VALUE : query.limit()));
        }
        return assemble(agentId, decode(agentId, list(agentId, query)));
    }

    private Optional<AgentCheckpoint> latestCheckpoint(String agentId, CheckpointFilter filter) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        CheckpointFilter query = query(filter);
        if (walksInShell(query)) {
            return remember(agentId, walk(agentId, query, 1));
        }
        Optional<StoredDocument> latest = latest(agentId, query);
        if (latest.isEmpty()) {
            return Optional.empty();
        }
        Optional<AgentCheckpoint> known = lastRead.get(agentId, latest.get());
        if (known.isPresent()) {
            return known;
        }
        List<AgentCheckpoint> decoded = decode(agentId, List.of(latest.get()));
        if (decoded.isEmpty()) {
            // the newest match is corrupt and skipped: the newest readable one below it
            var below = query.toBuilder()
                    .limit(null)
                    .maxVersion(latest.get().version() - 1)
                    .build();
            List<AgentCheckpoint> older = decode(agentId, list(agentId, below));
            return remember(agentId, older.isEmpty() ? older : List.of(older.get(older.size() - 1)));
        }
        Optional<AgentCheckpoint> read = remember(agentId, decoded);
        lastRead.put(agentId, latest.get(), read.get());
        return read;
    }

    /** The backend's records matching {@code filter}, ascending by version, over every attribute form. */
    private List<StoredDocument> list(String agentId, CheckpointFilter filter) {
        List<CheckpointFilter> queries = attributes.queries(filter);
        if (queries.size() == 1) {
            return backend.list(agentId, queries.get(0));
        }
        var byVersion = new TreeMap<Long, StoredDocument>();
        for (CheckpointFilter query : queries) {
            backend.list(agentId, query).forEach(found -> byVersion.putIfAbsent(found.version(), found));
        }
        var ascending = new ArrayList<>(byVersion.values());
        int limit = filter.limit() == null ? ascending.size() : Math.min(filter.limit(), ascending.size());
        return List.copyOf(ascending.subList(ascending.size() - limit, ascending.size()));
    }

    /** The backend's newest record matching {@code filter}, over every attribute form. */
    private Optional<StoredDocument> latest(String agentId, CheckpointFilter filter) {
        StoredDocument newest = null;
        for (CheckpointFilter query : attributes.queries(filter)) {
            var found = backend.latest(agentId, query);
            if (found.isPresent() && (newest == null || found.get().version() > newest.version())) {
                newest = found.get();
            }
        }
        return Optional.ofNullable(newest);
    }

    private Optional<AgentCheckpoint> checkpoint(String agentId, String checkpointId) {
        requireOpen();
        StorageChecks.requireAgentId(agentId);
        StorageChecks.requireCheckpointId(checkpointId);
        Optional<StoredDocument> found;
        try {
            found = backend.find(agentId, checkpointId);
        } catch (CorruptCheckpointException e) {
            if (!settings.skipCorrupt()) {
                throw e;
            }
            log().warn("Skipping a corrupt checkpoint: {}", e.getMessage());
            return Optional.empty();
        }
        return remember(agentId, decode(agentId, found.stream().toList()));
    }

    /** Deletes the agent's checkpoints, then its history segments older than the grace period. */
    private int deleteAll(String agentId) {
        requireOpen();
        requireWritable("deleteCheckpoints");
        StorageChecks.requireAgentId(agentId);
        int deleted = backend.deleteAll(agentId);
        lastRead.forget(agentId);
        collectQuietly(agentId);
        return deleted;
    }

    /** Deletes the agent's checkpoints below {@code version}, then the segments no kept checkpoint needs. */
    private int deleteBefore(String agentId, long version) {
        requireOpen();
        requireWritable("deleteCheckpointsBefore");
        StorageChecks.requireAgentId(agentId);
        int deleted = backend.deleteBefore(agentId, version);
        if (deleted > 0) {
            lastRead.forget(agentId);
            collectQuietly(agentId);
        }
        return deleted;
    }

    @Override
    public List<String> listAgents() {
        return observe(StorageOperation.LIST_AGENTS, context -> {
            requireOpen();
            return backend.listAgents();
        });
    }

    /** Deletes the checkpoints whose time to live has run out; 0 when the backend keeps no expiry times. */
    @Override
    public int deleteExpired() {
        return observe(StorageOperation.DELETE_EXPIRED, context -> {
            requireOpen();
            requireWritable("deleteExpired");
            int deleted = expiry.isPresent() ? expiry.get().deleteExpired(clock.instant()) : 0;
            if (deleted > 0) {
                lastRead.clear();
            }
            return deleted;
        });
    }

    @Override
    public void checkHealth() {
        requireOpen();
        backend.checkHealth();
    }

    /** Closes the backend; later calls throw {@link IllegalStateException}. Closing again does nothing. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            cache.clear();
            lastRead.clear();
            try {
                backend.close();
            } finally {
                closeBlobStore();
            }
        }
    }

    private void closeBlobStore() {
        if (blobStore == null) {
            return;
        }
        try {
            blobStore.close();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new PersistenceException("Could not close the blob store of " + this, e);
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + backend + "]";
    }

    private CheckpointFilter query(CheckpointFilter filter) {
        if (filter == null) {
            return CheckpointFilter.ALL;
        }
        ReservedMetadata.requireUnreserved(filter.metadata(), "filter metadata");
        StorageChecks.requireWellFormedFilter(filter);
        return filter;
    }

    /** Whether the filter has attribute fields the backend leaves to the shell (it offers a candidate scan). */
    private boolean walksInShell(CheckpointFilter filter) {
        return candidateScan.isPresent()
                && (filter.nodeId() != null
                        || filter.createdAfter() != null
                        || filter.createdBefore() != null
                        || !filter.metadata().isEmpty()
                        || !filter.includeTombstones());
    }

    /** Up to {@code limit} matches, newest first from the backend's candidates, returned ascending. */
    private List<AgentCheckpoint> walk(String agentId, CheckpointFilter filter, int limit) {
        var matches = new ArrayList<AgentCheckpoint>();
        Iterator<StoredDocument> candidates = candidateScan.get().candidates(agentId, attributes.candidates(filter));
        while (matches.size() < limit && candidates.hasNext()) {
            for (AgentCheckpoint stored : decode(agentId, List.of(candidates.next()))) {
                if (filter.matches(stored)) {
                    matches.add(stored);
                }
            }
        }
        Collections.reverse(matches);
        return matches;
    }

    private List<AgentCheckpoint> assemble(String agentId, List<AgentCheckpoint> storedForms) {
        return reader.assemble(agentId, storedForms).stream()
                .map(HistoryReader.Assembled::checkpoint)
                .toList();
    }

    /**
     * The last of {@code storedForms} completed, remembered by the history writer (so the next save is incremental).
     */
    private Optional<AgentCheckpoint> remember(String agentId, List<AgentCheckpoint> storedForms) {
        if (storedForms.isEmpty()) {
            return Optional.empty();
        }
        var assembled = reader.assemble(agentId, List.of(storedForms.get(storedForms.size() - 1)))
                .get(0);
        if (assembled.log() != null) {
            logWriter.remember(agentId, assembled);
        } else {
            writer.remember(agentId, assembled);
        }
        return Optional.of(assembled.checkpoint());
    }

    /** The stored forms of {@code records}; a corrupt one is left out with a WARN line when the settings say so. */
    private List<AgentCheckpoint> decode(String agentId, List<StoredDocument> records) {
        if (!settings.skipCorrupt()) {
            return decodeStrictly(agentId, records);
        }
        var decoded = new ArrayList<AgentCheckpoint>(records.size());
        for (StoredDocument record : records) {
            try {
                decoded.add(documents.decode(agentId, record));
            } catch (CorruptCheckpointException e) {
                log().warn("Skipping a corrupt checkpoint: {}", e.getMessage());
            }
        }
        return decoded;
    }

    private List<AgentCheckpoint> decodeStrictly(String agentId, List<StoredDocument> records) {
        return records.stream().map(record -> documents.decode(agentId, record)).toList();
    }

    private void collectQuietly(String agentId) {
        if (!hasSegments) {
            return;
        }
        try {
            storedForm.collectGarbage(
                    agentId, clock.instant().minus(settings.history().gracePeriod()));
        } catch (PersistenceException e) {
            log().warn(
                            "Could not collect the unused history segments of agent '{}' after a deletion; "
                                    + "the next collection will: {}",
                            agentId,
                            e.toString());
        }
    }

    /** Whether this shell was opened read-only ({@link StorageSettings#readOnly()}): it refuses every write. */
    public boolean readOnly() {
        return readOnly;
    }

    /** Refuses {@code operation} when the shell only reads, before anything reaches the backend. */
    private void requireWritable(String operation) {
        if (readOnly) {
            throw new ReadOnlyStorageException(operation + " refused: " + this + " was opened read-only ("
                    + StorageSettings.READ_ONLY.key() + "); nothing was written");
        }
    }

    /** Names the provider only when it is closed: its description is built from the backend's on every call. */
    private void requireOpen() {
        if (closed.get()) {
            StorageChecks.requireOpen(true, toString());
        }
    }

    /** The shell's stored form, for inspection and segment collection. */
    private final class ShellStoredForm implements StoredForm {
        @Override
        public WrittenForm writes() {
            DocumentLayers layers = settings.layers();
            return new WrittenForm(
                    settings.formatVersion(),
                    layers.compresses(),
                    layers.checksum(),
                    layers.encrypts(),
                    settings.incrementalHistory() && hasSegments);
        }

        @Override
        public String providerName() {
            return providerName;
        }

        @Override
        public String description() {
            return backend.describe();
        }

        @Override
        public List<StoredDocument> documents(String agentId, CheckpointFilter filter) {
            requireOpen();
            StorageChecks.requireAgentId(agentId);
            CheckpointFilter versions = CheckpointFilter.builder()
                    .maxVersion(filter == null ? null : filter.maxVersion())
                    .limit(filter == null ? null : filter.limit())
                    .build();
            return backend.list(agentId, versions);
        }

        @Override
        public List<AgentSummary> agentSummaries() {
            requireOpen();
            return summaries.all();
        }

        @Override
        public String location(String agentId, String checkpointId) {
            return backend.location(agentId, checkpointId);
        }

        @Override
        public HistorySegmentStore segments() {
            return segments;
        }

        @Override
        public boolean hasSegments() {
            return hasSegments;
        }

        @Override
        public int collectGarbage(String agentId, Instant writtenBefore) {
            requireOpen();
            requireWritable("collectGarbage");
            StorageChecks.requireAgentId(agentId);
            Objects.requireNonNull(writtenBefore, "writtenBefore");
            if (!hasSegments || agentId.equals(BlobVault.AGENT_ID)) {
                return 0; // the blob area is collected by collectBlobs, over every agent
            }
            int deleted = collector.collect(agentId, writtenBefore);
            if (deleted > 0) {
                cache.forget(agentId);
            }
            return deleted;
        }

        @Override
        public List<String> listSegmentAgents() {
            List<String> agents = segments.listSegmentAgents();
            return agents.contains(BlobVault.AGENT_ID)
                    ? agents.stream().filter(a -> !a.equals(BlobVault.AGENT_ID)).toList()
                    : agents;
        }

        @Override
        public Optional<BlobArea> blobArea() {
            return blobs == null ? Optional.empty() : Optional.of(blobs.area());
        }

        @Override
        public int collectBlobs(Instant writtenBefore) {
            requireOpen();
            requireWritable("collectBlobs");
            Objects.requireNonNull(writtenBefore, "writtenBefore");
            return blobCollector == null ? 0 : blobCollector.collect(writtenBefore);
        }

        @Override
        public Duration gracePeriod() {
            return settings.history().gracePeriod();
        }
    }

    /** The stored forms of an agent's checkpoints, for the segment collector (which reads their descriptors). */
    private final class UndecodedView implements PersistenceStorageProvider<CheckpointFilter> {
        @Override
        public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
            return storedForms(agentId);
        }

        @Override
        public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
            throw new UnsupportedOperationException("read-only view");
        }

        @Override
        public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
            throw new UnsupportedOperationException("read-only view");
        }
    }

    /** Reads the id and version of a stored document with the codec of {@code settings}. */
    private static DocumentIdentity identities(StorageSettings settings) {
        LayeredCheckpointCodec codec = settings.codec();
        return (agentId, checkpointId, document, where) -> {
            AgentCheckpoint stored = codec.decode(document, new CheckpointLocation(agentId, checkpointId, where));
            return new DocumentIdentity.Identity(stored.checkpointId(), stored.version());
        };
    }

    /** Builds {@link StorageShell}s. */
    public static final class Builder {
        private final BackendOpener opener;
        /** Null until set: then the build takes {@link StorageSettings#ofDefaults()}. */
        private StorageSettings settings;

        private Clock clock = Clock.systemUTC();
        private ObservationRegistry observations = ObservationRegistry.NOOP;
        private String providerName;
        private boolean readOnly;
        private ProviderConfig config = ProviderConfig.empty();
        private PersistenceStorageProvider<?> blobStore;

        private Builder(BackendOpener opener) {
            this.opener = opener;
        }

        /**
         * The settings and the observation registry of a discovery configuration:
         * {@code settings(StorageSettings.from(config)).observationRegistry(config.observations())}.
         *
         * @throws dev.agentpersistence.PersistenceException naming a malformed setting
         */
        public Builder config(ProviderConfig config) {
            Objects.requireNonNull(config, "config");
            this.config = config;
            return settings(StorageSettings.from(config)).observationRegistry(config.observations());
        }

        /**
         * Another store keeping the parts stored by reference in its segment area (instead of
         * {@link StorageSettings#blobStore()}); the shell closes it when it is closed. Every reader of this store needs
         * the same blob store.
         */
        public Builder blobStore(PersistenceStorageProvider<?> store) {
            this.blobStore = Objects.requireNonNull(store, "store");
            return this;
        }

        /** What to write (default {@link StorageSettings#ofDefaults()}). */
        public Builder settings(StorageSettings settings) {
            this.settings = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /** The clock for expiry times, segment write times and the grace period (default the system clock, UTC). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Where every operation is observed (default none): one observation per save, read, deletion and listing, with
         * the low-cardinality keys {@code provider}, {@code operation} and {@code outcome}
         * ({@link dev.agentpersistence.metrics.StorageMetricNames}).
         */
        public Builder observationRegistry(ObservationRegistry observations) {
            this.observations = Objects.requireNonNull(observations, "observations");
            return this;
        }

        /**
         * Opens the store for reading only, whatever the settings say ({@link StorageSettings#readOnly()}): the backend
         * creates and migrates nothing, a store that does not exist is a
         * {@link dev.agentpersistence.StorageNotFoundException} naming it, and every save or deletion a
         * {@link ReadOnlyStorageException} that stores nothing.
         */
        public Builder readOnly() {
            this.readOnly = true;
            return this;
        }

        /** The {@code provider} key of the observations, e.g. {@code jdbc} (default: named after the backend). */
        public Builder providerName(String providerName) {
            Objects.requireNonNull(providerName, "providerName");
            if (providerName.isBlank()) {
                throw new IllegalArgumentException("providerName must not be blank");
            }
            this.providerName = providerName;
            return this;
        }

        /**
         * Opens the backend and creates the shell over it; a shell that cannot be created closes the backend.
         *
         * @throws IllegalArgumentException when a time to live is set and the backend keeps no expiry times
         * @throws dev.agentpersistence.PersistenceException when the backend cannot be opened
         * @throws dev.agentpersistence.StorageNotFoundException when the shell is read-only and the store does not
         *     exist (some backends find out at first use instead)
         */
        public StorageShell build() {
            StorageSettings chosen = this.settings != null ? this.settings : StorageSettings.ofDefaults();
            StorageSettings settings = readOnly && !chosen.readOnly()
                    ? StorageSettings.from(chosen).readOnly(true).build()
                    : chosen;
            var context = new BackendContext(
                    clock,
                    settings.maxCheckpointSize(),
                    settings.ttl(),
                    settings.skipCorrupt(),
                    identities(settings),
                    settings.readOnly());
            StorageBackend backend = Objects.requireNonNull(opener.open(context), "the opener returned no backend");
            PersistenceStorageProvider<?> blobs = blobStore;
            try {
                if (blobs == null && settings.blobStore().isPresent()) {
                    blobs = openBlobStore(settings);
                }
                BlobArea blobArea = blobs == null ? null : blobArea(blobs);
                return new StorageShell(backend, settings, clock, observations, providerName, blobArea, blobs);
            } catch (RuntimeException e) {
                try {
                    backend.close();
                    if (blobs != null) {
                        blobs.close();
                    }
                } catch (Exception closing) {
                    e.addSuppressed(closing);
                }
                throw e;
            }
        }

        /** The store {@link StorageSettings#blobStore()} names, over this builder's configuration. */
        private PersistenceStorageProvider<?> openBlobStore(StorageSettings settings) {
            String uri = settings.blobStore().get();
            ProviderConfig base = config.with(StorageSettings.BLOB_STORE.key(), StorageSettings.MAIN_STORE)
                    .with(StorageSettings.READ_ONLY.key(), String.valueOf(settings.readOnly()));
            StorageUri parsed;
            try {
                parsed = StorageUri.parse(uri, base);
            } catch (IllegalArgumentException e) {
                throw new StorageConfigurationException(StorageSettings.BLOB_STORE.key() + ": " + e.getMessage(), e);
            }
            return parsed.open();
        }

        private static BlobArea blobArea(PersistenceStorageProvider<?> store) {
            StoredForm form = store.storedForm()
                    .filter(StoredForm::hasSegments)
                    .orElseThrow(() -> new StorageConfigurationException("The blob store " + store
                            + " has no segment area to keep parts stored by reference in ("
                            + StorageSettings.BLOB_STORE.key() + ")"));
            return new BlobArea(form.segments(), BlobVault.AGENT_ID, form.description());
        }
    }

    /** Looked up when a line is logged: binding SLF4J takes a fresh JVM tens of milliseconds; most runs log nothing. */
    private static Logger log() {
        return LoggerFactory.getLogger(StorageShell.class);
    }
}
