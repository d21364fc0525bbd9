package dev.agentpersistence.s3.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Lists agents: the folders of {@code v/} are exactly the agents with at least one body (S3 has no
 * empty folders). Reversible segments decode in place; digest segments read the agent id from
 * {@code n/A}, written before the agent's first body.
 */
public final class AgentDirectory {
    private final CheckpointStore store;

    public AgentDirectory(CheckpointStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** The ids of agents with at least one checkpoint, sorted. */
    public List<String> agents() {
        KeyLayout layout = store.layout();
        var ids = new ArrayList<String>();
        for (String folder : store.objects().folders(layout.agentsFolder())) {
            String agent = layout.agentOfFolder(folder);
            if (Segments.isDigest(agent)) {
                store.objects().get(layout.nameKey(agent))
                        .map(stored -> new String(stored.bytes(), StandardCharsets.UTF_8))
                        .filter(id -> Segments.encode(id).equals(agent))
                        .ifPresent(ids::add);
            } else {
                Segments.decode(agent).filter(id -> Segments.encode(id).equals(agent)).ifPresent(ids::add);
            }
        }
        ids.sort(null);
        return List.copyOf(ids);
    }
}
