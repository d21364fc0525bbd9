package dev.agentpersistence.s3.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Lists agents: the folders of {@code v/} are exactly the agents with at least one body (S3 has no empty folders).
 * Reversible key parts decode in place; digest parts read the agent id from {@code n/A}, written before the agent's
 * first body.
 */
public final class AgentDirectory {
    private final CheckpointObjects store;

    public AgentDirectory(CheckpointObjects store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** The ids of agents with at least one checkpoint, sorted. */
    public List<String> agents() {
        KeyLayout layout = store.layout();
        return agentIds(
                store.objects(),
                store.objects().folders(layout.agentsFolder()),
                layout::agentOfFolder,
                layout::nameKey);
    }

    /**
     * The agent ids named by {@code folders}, sorted: each folder's agent segment ({@code agentOf}) decodes in place,
     * or, for a digest part, names the key of an object holding the agent id ({@code nameKey}). Folders whose segment
     * does not encode back to itself are left out.
     */
    static List<String> agentIds(
            S3Objects objects,
            List<String> folders,
            Function<String, String> agentOf,
            Function<String, String> nameKey) {
        var ids = new ArrayList<String>();
        for (String folder : folders) {
            String agent = agentOf.apply(folder);
            if (KeyParts.isDigest(agent)) {
                objects.get(nameKey.apply(agent))
                        .map(stored -> new String(stored.bytes(), StandardCharsets.UTF_8))
                        .filter(id -> KeyParts.encode(id).equals(agent))
                        .ifPresent(ids::add);
            } else {
                KeyParts.decode(agent)
                        .filter(id -> KeyParts.encode(id).equals(agent))
                        .ifPresent(ids::add);
            }
        }
        ids.sort(null);
        return List.copyOf(ids);
    }
}
