package dev.agentpersistence.adk;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.google.adk.artifacts.BaseArtifactService;
import com.google.adk.artifacts.ListArtifactsResponse;
import com.google.common.collect.ImmutableList;
import com.google.genai.types.Part;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.adk.internal.AdkIds;
import dev.agentpersistence.adk.internal.AdkRecords;
import dev.agentpersistence.adk.internal.NextVersion;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * An ADK {@link BaseArtifactService} over any agent-persistence provider: versioned artifacts that survive the process.
 *
 * <p>Each artifact is an agent whose checkpoints are its versions (checkpoint version {@code n} is artifact version
 * {@code n}; the {@link Part} is the checkpoint's state entry {@value #PART_KEY}, as ADK's JSON): session artifacts
 * under {@code @adk/artifact/<app>/<user>/<session>/<file>}, and artifacts whose file name starts with {@code user:}
 * under {@code @adk/user-artifact/<app>/<user>/<file>}, shared by all the user's sessions (in the namespace
 * {@code adk}; {@link Builder#withoutNamespace()} keeps a store written before namespaces, {@code adk/artifact/...}, in
 * use). Saving the same file from several writers gives each save its own version (a save that lost a race takes the
 * next one). Parts are stored like any checkpoint, so the provider's limits, compression and encryption apply.
 *
 * <p>Every method does its work when called and reports failures through the returned reactive type. Thread-safe; it
 * does not own the storage.
 */
public final class AgentPersistenceArtifactService implements BaseArtifactService {
    /** The checkpoint state key holding the part. */
    public static final String PART_KEY = "adk.part";
    /** The file name prefix of user-scoped artifacts. */
    public static final String USER_PREFIX = "user:";

    private final PersistenceStorageProvider<CheckpointFilter> storage;
    private final Clock clock;
    private final AdkIds ids;

    private AgentPersistenceArtifactService(
            PersistenceStorageProvider<CheckpointFilter> storage, Clock clock, AdkIds ids) {
        this.storage = storage;
        this.clock = clock;
        this.ids = ids;
    }

    /** A builder over {@code storage}. */
    public static Builder builder(PersistenceStorageProvider<CheckpointFilter> storage) {
        return new Builder(Objects.requireNonNull(storage, "storage"));
    }

    /** A service over {@code storage}. */
    public static AgentPersistenceArtifactService of(PersistenceStorageProvider<CheckpointFilter> storage) {
        return of(storage, Clock.systemUTC());
    }

    /** A service over {@code storage} whose checkpoints are stamped by {@code clock}. */
    public static AgentPersistenceArtifactService of(
            PersistenceStorageProvider<CheckpointFilter> storage, Clock clock) {
        return builder(storage).clock(clock).build();
    }

    /** Stores {@code artifact} as the file's next version and returns that version (0 for the first). */
    @Override
    public Single<Integer> saveArtifact(
            String appName, String userId, String sessionId, String filename, Part artifact) {
        Objects.requireNonNull(artifact, "artifact");
        try {
            String agentId = agentId(appName, userId, sessionId, filename);
            var part = AdkRecords.mapper().readTree(artifact.toJson());
            var saved = NextVersion.save(
                    storage,
                    agentId,
                    clock,
                    (builder, head) -> builder.nodeId("artifact")
                            .state(Map.of(PART_KEY, part))
                            .metadata(Map.of("adk.filename", filename)));
            return Single.just(Math.toIntExact(saved.version()));
        } catch (JsonProcessingException e) {
            return Single.error(new IllegalArgumentException("artifact cannot be written as JSON", e));
        } catch (RuntimeException e) {
            return Single.error(e);
        }
    }

    /** The given version, or the newest when {@code version} is {@code null}; empty when there is none. */
    @Override
    public Maybe<Part> loadArtifact(String appName, String userId, String sessionId, String filename, Integer version) {
        try {
            String agentId = agentId(appName, userId, sessionId, filename);
            Optional<AgentCheckpoint> found;
            if (version == null) {
                found = storage.getLatestCheckpoint(agentId);
            } else if (version < 0) {
                found = Optional.empty();
            } else {
                found = storage.getLatestCheckpoint(
                                agentId,
                                CheckpointFilter.builder()
                                        .maxVersion(version.longValue())
                                        .build())
                        .filter(checkpoint -> checkpoint.version() == version);
            }
            return found.map(checkpoint -> Maybe.just(part(checkpoint))).orElseGet(Maybe::empty);
        } catch (RuntimeException e) {
            return Maybe.error(e);
        }
    }

    /** The file names of the session's artifacts and of the user's {@code user:} artifacts, sorted. */
    @Override
    public Single<ListArtifactsResponse> listArtifactKeys(String appName, String userId, String sessionId) {
        try {
            String sessionPrefix = ids.artifactsOf(appName, userId, sessionId);
            String userPrefix = ids.userArtifactsOf(appName, userId);
            var names = new TreeSet<String>();
            for (String agentId : storage.listAgents()) {
                if (agentId.startsWith(sessionPrefix)) {
                    names.add(AdkIds.unescape(agentId.substring(sessionPrefix.length())));
                } else if (agentId.startsWith(userPrefix)) {
                    names.add(AdkIds.unescape(agentId.substring(userPrefix.length())));
                }
            }
            return Single.just(ListArtifactsResponse.builder()
                    .filenames(ImmutableList.copyOf(names))
                    .build());
        } catch (RuntimeException e) {
            return Single.error(e);
        }
    }

    /** Deletes every version of the file; deleting an unknown file is a no-op. */
    @Override
    public Completable deleteArtifact(String appName, String userId, String sessionId, String filename) {
        try {
            storage.deleteCheckpoints(agentId(appName, userId, sessionId, filename));
            return Completable.complete();
        } catch (RuntimeException e) {
            return Completable.error(e);
        }
    }

    /** The file's versions, ascending; empty for an unknown file. */
    @Override
    public Single<ImmutableList<Integer>> listVersions(
            String appName, String userId, String sessionId, String filename) {
        try {
            return Single.just(storage.getCheckpoints(agentId(appName, userId, sessionId, filename)).stream()
                    .filter(checkpoint -> !checkpoint.isTombstone())
                    .map(checkpoint -> Math.toIntExact(checkpoint.version()))
                    .collect(ImmutableList.toImmutableList()));
        } catch (RuntimeException e) {
            return Single.error(e);
        }
    }

    @Override
    public String toString() {
        return "AgentPersistenceArtifactService[" + storage + ", " + ids + "]";
    }

    /** Builds {@link AgentPersistenceArtifactService}s. */
    public static final class Builder {
        private final PersistenceStorageProvider<CheckpointFilter> storage;
        private Clock clock = Clock.systemUTC();
        private boolean namespaced = true;

        private Builder(PersistenceStorageProvider<CheckpointFilter> storage) {
            this.storage = storage;
        }

        /** The clock checkpoints are stamped with; default UTC system clock. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Stores artifacts as versions before namespaces did ({@code adk/artifact/...}, {@code adk/user-artifact/...}),
         * to keep reading and writing a store they wrote.
         */
        public Builder withoutNamespace() {
            this.namespaced = false;
            return this;
        }

        /** The service. */
        public AgentPersistenceArtifactService build() {
            return new AgentPersistenceArtifactService(storage, clock, AdkIds.of(namespaced));
        }
    }

    private String agentId(String appName, String userId, String sessionId, String filename) {
        Objects.requireNonNull(appName, "appName");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(filename, "filename");
        if (filename.startsWith(USER_PREFIX)) {
            return ids.userArtifact(appName, userId, filename);
        }
        return ids.artifact(appName, userId, Objects.requireNonNull(sessionId, "sessionId"), filename);
    }

    private static Part part(AgentCheckpoint checkpoint) {
        var node = checkpoint.state().get(PART_KEY);
        if (node == null) {
            throw new CorruptCheckpointException(
                    checkpoint.agentId(), checkpoint.checkpointId(), "state '" + PART_KEY + "'", "no part", null);
        }
        try {
            return Part.fromJson(node.toString());
        } catch (RuntimeException e) {
            throw new CorruptCheckpointException(
                    checkpoint.agentId(), checkpoint.checkpointId(), "state '" + PART_KEY + "'", e.getMessage(), e);
        }
    }
}
