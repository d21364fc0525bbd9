package dev.agentpersistence.backend;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A {@link StorageBackend} with a segment area for stores that keep all of an agent's records as one value and can
 * replace that value atomically: a file, a blob in an object store, a key in etcd, Consul or DynamoDB, a row holding a
 * list. A subclass reads the value, replaces it through a read-modify-write, lists the agents and says where a record
 * is ({@link #location(Area, String, String)}); this class builds every query, insert, deletion and segment operation
 * on those primitives.
 *
 * <p>There are two areas per agent ({@link Area}): its checkpoints, and its history segments, each kept as a
 * {@link StoredCheckpoint} whose checkpoint id is the segment id and whose creation time is the segment's last write
 * time (taken from the {@link Clock} given to the constructor).
 *
 * <p>A store that keeps a value as bytes or text can use {@link #encode} and {@link #decode}, which write records as
 * JSON Lines (one JSON object per record, the document in base64) and read them back holding no document over the
 * maximum checkpoint size: such a record reads as a {@link CorruptCheckpointException} naming it while the agent's
 * other records still read, and {@link #encode} refuses it, so a rewrite never drops what it could not read.
 *
 * <p>What a subclass guarantees:
 *
 * <ul>
 *   <li>{@link #read} returns what one complete {@link #update} left, never part of one;
 *   <li>{@link #update} is atomic against every other update of the same agent and area, across threads, instances and
 *       (for a shared store) processes; a store that writes optimistically (compare-and-set, a conditional put) may
 *       apply the change again after losing a race;
 *   <li>its I/O errors are {@link dev.agentpersistence.StorageUnavailableException}s.
 * </ul>
 *
 * Every query reads the agent's whole value, which is the price of this simplicity: the base suits stores whose agents
 * keep up to some thousands of checkpoints, and a store with indexes should implement {@link StorageBackend} itself and
 * push filters down.
 *
 * <pre>{@code
 * final class MapBackend extends AgentRecordsBackend {
 *     private final Map<Area, ConcurrentMap<String, List<StoredCheckpoint>>> values =
 *             Map.of(Area.CHECKPOINTS, new ConcurrentHashMap<>(), Area.SEGMENTS, new ConcurrentHashMap<>());
 *
 *     MapBackend(Clock clock) {
 *         super(clock, Long.MAX_VALUE); // the values are in the heap: no read to bound
 *     }
 *
 *     protected List<StoredCheckpoint> read(Area area, String agentId) {
 *         return values.get(area).getOrDefault(agentId, List.of());
 *     }
 *
 *     protected int update(Area area, String agentId, UnaryOperator<List<StoredCheckpoint>> change) {
 *         var removed = new AtomicInteger();
 *         values.get(area).compute(agentId, (id, old) -> {
 *             List<StoredCheckpoint> before = old == null ? List.of() : old;
 *             List<StoredCheckpoint> after = change.apply(before);
 *             removed.set(before.size() - after.size());
 *             return after.isEmpty() ? null : after;
 *         });
 *         return removed.get();
 *     }
 *
 *     protected Collection<String> agents(Area area) {
 *         return values.get(area).keySet();
 *     }
 *
 *     public void checkHealth() {
 *     }
 *
 *     protected String location(Area area, String agentId, String id) {
 *         return "map entry " + area + "/" + agentId + "/" + id;
 *     }
 * }
 * }</pre>
 */
public abstract class AgentRecordsBackend implements StorageBackend, HistorySegmentStore {

    /** The two values a subclass keeps per agent. */
    public enum Area {
        /** The agent's checkpoint records. */
        CHECKPOINTS,
        /** The agent's history segments, as records named by segment id and dated by last write. */
        SEGMENTS
    }

    private static final byte[] NOT_READ = {}; // what decode reads a document over the maximum size as
    private final Clock clock;
    private final JsonMapper json;

    /**
     * A backend dating segment writes by {@code clock}, whose {@link #decode} holds no document larger than
     * {@code maxCheckpointSize} bytes (the {@code StorageSettings.maxCheckpointSize()} of its shell).
     */
    protected AgentRecordsBackend(Clock clock, long maxCheckpointSize) {
        this.clock = Objects.requireNonNull(clock, "clock");
        var capped = new JsonDeserializer<byte[]>() { // decodes base64, keeping at most the maximum size
                    @Override
                    public byte[] deserialize(JsonParser parser, DeserializationContext context) throws IOException {
                        var kept = new ByteArrayOutputStream() {
                            @Override
                            public void write(byte[] bytes, int offset, int length) {
                                super.write(bytes, offset, count + length <= maxCheckpointSize ? length : 0);
                            }
                        };
                        return parser.readBinaryValue(kept) > maxCheckpointSize ? NOT_READ : kept.toByteArray();
                    }
                };
        json = JsonMapper.builder()
                .addModule(new JavaTimeModule())
                .addModule(new SimpleModule().addDeserializer(byte[].class, capped))
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .build();
    }

    /** The agent's records in {@code area}, in the order the last update left them; empty when there are none. */
    protected abstract List<StoredCheckpoint> read(Area area, String agentId);

    /**
     * Atomically replaces the agent's records in {@code area} by {@code change.apply(current)}; an empty result removes
     * the value. {@code change} leaves its argument as it is and returns a new list or the same one (nothing to write
     * then); it may be applied more than once when the store retries a lost race, the last application being the one
     * stored. Returns how many records went: {@code before.size() - after.size()}.
     */
    protected abstract int update(Area area, String agentId, UnaryOperator<List<StoredCheckpoint>> change);

    /** The agents with a value in {@code area}, in any order; sorted by this class. */
    protected abstract Collection<String> agents(Area area);

    /** Where a record of {@code area} is or would be stored (a path, a key), for error messages; never a secret. */
    protected abstract String location(Area area, String agentId, String id);

    /**
     * What a read of {@code record} in {@code area} returns: {@link StoredCheckpoint#toDocument()}, or a
     * {@link CorruptCheckpointException} naming the record when {@link #decode} did not read its document. A subclass
     * with its own format that reads a record only partly refuses it here too.
     */
    protected StoredDocument document(Area area, StoredCheckpoint record) {
        if (record.document() == NOT_READ) {
            throw new CorruptCheckpointException(
                    record.agentId(),
                    record.checkpointId(),
                    location(area, record.agentId(), record.checkpointId()),
                    "the stored document is larger than the maximum checkpoint size; it was not read",
                    null);
        }
        return record.toDocument();
    }

    /**
     * The records as JSON Lines, for a store that keeps values as bytes; a record {@link #document} refuses (one
     * {@link #decode} did not read whole) stops the encoding, so a rewrite never drops it.
     */
    protected final byte[] encode(Area area, List<StoredCheckpoint> records) throws IOException {
        var out = new ByteArrayOutputStream();
        for (StoredCheckpoint record : records) {
            document(area, record);
            out.write(json.writeValueAsBytes(record));
            out.write('\n');
        }
        return out.toByteArray();
    }

    /** The records {@link #encode} wrote to {@code in}; a document over the maximum size is not held. */
    protected final List<StoredCheckpoint> decode(InputStream in) throws IOException {
        return json.readerFor(StoredCheckpoint.class)
                .<StoredCheckpoint>readValues(in)
                .readAll();
    }

    /** Where a checkpoint record is or would be stored: {@link #location(Area, String, String)} of its area. */
    @Override
    public final String location(String agentId, String checkpointId) {
        return location(Area.CHECKPOINTS, agentId, checkpointId);
    }

    @Override
    public InsertResult insert(StoredCheckpoint record) {
        return insert(null, record);
    }

    /** The check of the head inside the same atomic {@link #update} as the insert. */
    @Override
    public InsertResult insertAfter(
            Optional<ExpectedHead> expected, StoredCheckpoint record, Map<String, byte[]> segments) {
        segments.forEach((id, content) -> putSegment(record.agentId(), id, content));
        return insert(Objects.requireNonNull(expected, "expected"), record);
    }

    /** {@code expected}: {@code null} for a plain insert. */
    private InsertResult insert(Optional<ExpectedHead> expected, StoredCheckpoint record) {
        var clash = new AtomicReference<List<StoredDocument>>(List.of());
        var headMoved = new AtomicBoolean();
        update(Area.CHECKPOINTS, record.agentId(), all -> {
            if (expected != null) {
                Optional<StoredCheckpoint> newest =
                        all.stream().max(Comparator.comparingLong(StoredCheckpoint::version));
                headMoved.set(
                        newest.isEmpty()
                                ? expected.isPresent()
                                : !ExpectedHead.holds(
                                        expected,
                                        newest.get().checkpointId(),
                                        newest.get().version()));
                if (headMoved.get()) {
                    return all;
                }
            }
            clash.set(all.stream()
                    .filter(r ->
                            r.version() == record.version() || r.checkpointId().equals(record.checkpointId()))
                    .map(r -> document(Area.CHECKPOINTS, r))
                    .toList());
            return clash.get().isEmpty()
                    ? Stream.concat(all.stream(), Stream.of(record)).toList()
                    : all;
        });
        if (headMoved.get()) {
            return InsertResult.headMoved();
        }
        return clash.get().isEmpty() ? InsertResult.stored() : InsertResult.clashedWith(clash.get());
    }

    @Override
    public Optional<StoredDocument> find(String agentId, String checkpointId) {
        return read(Area.CHECKPOINTS, agentId).stream()
                .filter(r -> r.checkpointId().equals(checkpointId))
                .findFirst()
                .map(r -> document(Area.CHECKPOINTS, r));
    }

    @Override
    public List<StoredDocument> list(String agentId, CheckpointFilter filter) {
        List<StoredCheckpoint> found = read(Area.CHECKPOINTS, agentId).stream()
                .filter(r -> r.matches(filter))
                .sorted(Comparator.comparingLong(StoredCheckpoint::version))
                .toList();
        int from = filter.limit() == null ? 0 : Math.max(0, found.size() - filter.limit());
        return found.subList(from, found.size()).stream()
                .map(r -> document(Area.CHECKPOINTS, r))
                .toList();
    }

    @Override
    public int deleteAll(String agentId) {
        return update(Area.CHECKPOINTS, agentId, all -> List.of());
    }

    @Override
    public int deleteBefore(String agentId, long version) {
        return update(
                Area.CHECKPOINTS,
                agentId,
                all -> all.stream().anyMatch(r -> r.version() < version)
                        ? all.stream().filter(r -> r.version() >= version).toList()
                        : all);
    }

    @Override
    public List<String> listAgents() {
        return agents(Area.CHECKPOINTS).stream().sorted().toList();
    }

    /** This backend itself. */
    @Override
    public Optional<HistorySegmentStore> segments() {
        return Optional.of(this);
    }

    /** Stores a segment; one already stored keeps its bytes and gets the clock's time as its new write time. */
    @Override
    public void putSegment(String agentId, String segmentId, byte[] content) {
        Instant now = clock.instant();
        update(Area.SEGMENTS, agentId, all -> {
            var old =
                    all.stream().filter(r -> r.checkpointId().equals(segmentId)).findFirst();
            var put = new StoredCheckpoint(
                    agentId,
                    segmentId,
                    0,
                    now,
                    null,
                    null,
                    false,
                    Map.of(),
                    old.map(StoredCheckpoint::document).orElse(content));
            Stream<StoredCheckpoint> others =
                    all.stream().filter(r -> !r.checkpointId().equals(segmentId));
            return Stream.concat(others, Stream.of(put)).toList();
        });
    }

    @Override
    public Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds) {
        return read(Area.SEGMENTS, agentId).stream()
                .filter(r -> segmentIds.contains(r.checkpointId()))
                .collect(Collectors.toMap(
                        StoredCheckpoint::checkpointId,
                        r -> document(Area.SEGMENTS, r).document()));
    }

    @Override
    public List<SegmentInfo> listSegments(String agentId) {
        return read(Area.SEGMENTS, agentId).stream()
                .map(r -> new SegmentInfo(r.checkpointId(), r.createdAt()))
                .sorted(Comparator.comparing(SegmentInfo::segmentId))
                .toList();
    }

    @Override
    public int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
        return update(Area.SEGMENTS, agentId, all -> {
            List<StoredCheckpoint> kept = all.stream()
                    .filter(r -> !segmentIds.contains(r.checkpointId())
                            || !r.createdAt().isBefore(writtenBefore))
                    .toList();
            return kept.size() == all.size() ? all : kept;
        });
    }

    @Override
    public List<String> listSegmentAgents() {
        return agents(Area.SEGMENTS).stream().sorted().toList();
    }
}
