package dev.agentpersistence.examples.jsonl;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointConflictException;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.StorageUnavailableException;
import dev.agentpersistence.codec.CheckpointLocation;
import dev.agentpersistence.spi.PersistenceStorageProvider;
import dev.agentpersistence.spi.StorageChecks;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * A storage provider written from scratch, as an application would write its own: every checkpoint
 * is one line of a JSON Lines file, {@code {"agent":"<agent id>","checkpoint":<codec document>}}.
 * Saves append a line; deletions rewrite the file. Each instance keeps an index of the file in
 * memory and brings it up to date (reading only the lines added since) at every call, so several
 * instances and processes can share one file; a lock file orders their writes.
 *
 * <p>It follows the SPI contract and passes the {@code StorageProviderCompatibilityKit}: conflicts
 * and idempotent re-saves through {@link StorageChecks}, ascending lists, filters applied with
 * {@link CheckpointFilter#apply} (fine for a file that is read whole anyway), hostile ids stored as
 * JSON strings, {@link IllegalStateException} after {@link #close()}. A crash during an append
 * leaves a line without its newline, which is never read and is cut off by the next append.
 *
 * <p>Registered for discovery under the name {@value JsonLinesStorageProviderFactory#NAME} by
 * {@link JsonLinesStorageProviderFactory}.
 */
public final class JsonLinesStorageProvider implements PersistenceStorageProvider<CheckpointFilter> {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonFactory PARSERS = new JsonFactory();

    private final JsonLinesStorageConfig config;
    private final JsonLinesFile file;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, TreeMap<Long, AgentCheckpoint>> byVersion = new HashMap<>();
    private final Map<String, Map<String, AgentCheckpoint>> byId = new HashMap<>();
    private boolean closed;

    private JsonLinesStorageProvider(JsonLinesStorageConfig config, JsonLinesFile file) {
        this.config = config;
        this.file = file;
    }

    /** A provider over {@code file} with default settings. */
    public static JsonLinesStorageProvider open(Path file) {
        return create(JsonLinesStorageConfig.custom().file(file).build());
    }

    /**
     * A provider with {@code config}; creates the file's directory.
     *
     * @throws StorageUnavailableException when the directory or lock file cannot be created
     */
    public static JsonLinesStorageProvider create(JsonLinesStorageConfig config) {
        Objects.requireNonNull(config, "config");
        try {
            return new JsonLinesStorageProvider(config, new JsonLinesFile(config.file(), config.fsync()));
        } catch (IOException e) {
            throw new StorageUnavailableException("cannot open JSON Lines file " + config.file() + ": " + e, e);
        }
    }

    /** The settings. */
    public JsonLinesStorageConfig config() {
        return config;
    }

    @Override
    public List<AgentCheckpoint> getCheckpoints(String agentId, CheckpointFilter filter) {
        StorageChecks.requireAgentId(agentId);
        return read(() -> (filter == null ? CheckpointFilter.ALL : filter).apply(ascending(agentId)));
    }

    @Override
    public Optional<AgentCheckpoint> getLatestCheckpoint(String agentId, CheckpointFilter filter) {
        var matches = getCheckpoints(agentId, filter);
        return matches.isEmpty() ? Optional.empty() : Optional.of(matches.get(matches.size() - 1));
    }

    @Override
    public Optional<AgentCheckpoint> getCheckpoint(String agentId, String checkpointId) {
        StorageChecks.requireAgentId(agentId);
        StorageChecks.requireCheckpointId(checkpointId);
        return read(() -> Optional.ofNullable(byId.getOrDefault(agentId, Map.of()).get(checkpointId)));
    }

    @Override
    public void saveCheckpoint(String agentId, AgentCheckpoint checkpoint) {
        StorageChecks.requireSaveArguments(agentId, checkpoint);
        byte[] line = line(agentId, checkpoint);
        write(() -> {
            AgentCheckpoint sameVersion = byVersion.getOrDefault(agentId, new TreeMap<>()).get(checkpoint.version());
            if (sameVersion != null) {
                StorageChecks.requireIdentical(agentId, checkpoint, sameVersion);
                return null;
            }
            AgentCheckpoint sameId = byId.getOrDefault(agentId, Map.of()).get(checkpoint.checkpointId());
            if (sameId != null) {
                throw CheckpointConflictException.of(agentId, checkpoint, sameId);
            }
            file.append(line);
            index(checkpoint);
            return null;
        });
    }

    @Override
    public int deleteCheckpoints(String agentId) {
        StorageChecks.requireAgentId(agentId);
        return deleteWhere(agentId, Long.MAX_VALUE, true);
    }

    @Override
    public int deleteCheckpointsBefore(String agentId, long version) {
        StorageChecks.requireAgentId(agentId);
        return deleteWhere(agentId, version, false);
    }

    @Override
    public List<String> listAgents() {
        return read(() -> byVersion.entrySet().stream().filter(e -> !e.getValue().isEmpty()).map(Map.Entry::getKey)
                .sorted().toList());
    }

    /** Releases the lock file; later calls throw {@link IllegalStateException}. Closing again does nothing. */
    @Override
    public void close() {
        lock.lock();
        try {
            if (!closed) {
                closed = true;
                file.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the lock file of " + config.file(), e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "JsonLinesStorageProvider[" + config.file() + "]";
    }

    private int deleteWhere(String agentId, long below, boolean all) {
        return write(() -> {
            var versions = byVersion.getOrDefault(agentId, new TreeMap<>());
            var doomed = all ? versions : versions.headMap(below, false);
            int count = doomed.size();
            if (count == 0) {
                return 0;
            }
            var records = new ArrayList<byte[]>();
            for (var entry : byVersion.entrySet()) {
                for (AgentCheckpoint checkpoint : entry.getValue().values()) {
                    boolean deleted = entry.getKey().equals(agentId) && (all || checkpoint.version() < below);
                    if (!deleted) {
                        records.add(line(entry.getKey(), checkpoint));
                    }
                }
            }
            file.rewrite(records);
            for (AgentCheckpoint checkpoint : List.copyOf(doomed.values())) {
                byId.get(agentId).remove(checkpoint.checkpointId());
            }
            doomed.clear();
            return count;
        });
    }

    private List<AgentCheckpoint> ascending(String agentId) {
        return new ArrayList<>(byVersion.getOrDefault(agentId, new TreeMap<>()).values());
    }

    private void index(AgentCheckpoint checkpoint) {
        byVersion.computeIfAbsent(checkpoint.agentId(), a -> new TreeMap<>()).putIfAbsent(checkpoint.version(), checkpoint);
        byId.computeIfAbsent(checkpoint.agentId(), a -> new HashMap<>()).putIfAbsent(checkpoint.checkpointId(), checkpoint);
    }

    /** Brings the index up to date with the file; call under both locks. */
    private void refresh() throws IOException {
        JsonLinesFile.Batch batch = file.readNew();
        if (batch.reset()) {
            byVersion.clear();
            byId.clear();
        }
        for (JsonLinesFile.Line line : batch.lines()) {
            index(decode(line));
        }
    }

    private <T> T read(Supplier<T> body) {
        return write(body::get);
    }

    private <T> T write(JsonLinesFile.IoBody<T> body) {
        lock.lock();
        try {
            StorageChecks.requireOpen(closed, toString());
            return file.locked(() -> {
                refresh();
                return body.run();
            });
        } catch (IOException e) {
            throw new StorageUnavailableException("JSON Lines file " + config.file() + " cannot be used: " + e, e);
        } finally {
            lock.unlock();
        }
    }

    /** The record line of a checkpoint: the agent id as a JSON string, then the codec's document verbatim. */
    private byte[] line(String agentId, AgentCheckpoint checkpoint) {
        try {
            var out = new ByteArrayOutputStream();
            out.write("{\"agent\":".getBytes(StandardCharsets.UTF_8));
            out.write(JSON.writeValueAsBytes(agentId));
            out.write(",\"checkpoint\":".getBytes(StandardCharsets.UTF_8));
            out.write(config.codec().encode(checkpoint));
            out.write('}');
            byte[] line = out.toByteArray();
            for (byte b : line) {
                if (b == '\n' || b == '\r') {
                    throw new IllegalStateException("the codec produced a document with a line break; "
                            + "JSON Lines needs single-line documents");
                }
            }
            return line;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads a record line back; the checkpoint document is handed to the codec byte for byte. */
    private AgentCheckpoint decode(JsonLinesFile.Line line) {
        String location = config.file() + ":" + line.number();
        byte[] bytes = line.bytes();
        String agentId = null;
        try (JsonParser parser = PARSERS.createParser(bytes)) {
            if (parser.nextToken() == JsonToken.START_OBJECT
                    && parser.nextToken() == JsonToken.FIELD_NAME && "agent".equals(parser.currentName())
                    && parser.nextToken() == JsonToken.VALUE_STRING) {
                agentId = parser.getText();
                if (parser.nextToken() == JsonToken.FIELD_NAME && "checkpoint".equals(parser.currentName())
                        && parser.nextToken() == JsonToken.START_OBJECT && bytes[bytes.length - 1] == '}') {
                    int start = Math.toIntExact(parser.currentTokenLocation().getByteOffset());
                    byte[] document = Arrays.copyOfRange(bytes, start, bytes.length - 1);
                    return config.codec().decode(document, new CheckpointLocation(agentId, null, location));
                }
            }
        } catch (IOException e) {
            throw new CorruptCheckpointException(agentId == null ? "(unknown)" : agentId, null, location,
                    "not a JSON Lines record: " + e.getMessage(), e);
        }
        throw new CorruptCheckpointException(agentId == null ? "(unknown)" : agentId, null, location,
                "expected {\"agent\":\"...\",\"checkpoint\":{...}}", null);
    }
}
