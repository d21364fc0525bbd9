package dev.agentpersistence.s3.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * Deletes checkpoints: bodies first (which un-commits them), then the index entries and id markers that describe them,
 * and for a whole agent its {@link LatestPointer}. {@code deleteBelow} leaves the pointer: when it named a deleted
 * version, readers find its body gone and list instead, until a save raises it. A delete interrupted in between leaves
 * entries and markers without bodies, which readers ignore like those of an unfinished save.
 */
public final class CheckpointDeletions {
    private final CheckpointObjects store;

    public CheckpointDeletions(CheckpointObjects store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** Deletes every object of the agent; returns how many checkpoints there were. */
    public int deleteAll(String agentId) {
        String agent = KeyParts.encode(agentId);
        KeyLayout layout = store.layout();
        List<String> bodies = all(layout.bodyFolder(agent), null);
        store.objects().delete(bodies);
        var rest = new ArrayList<String>(all(layout.indexFolder(agent), null));
        rest.addAll(all(layout.markerFolder(agent), null));
        if (KeyParts.isDigest(agent)) {
            rest.add(layout.nameKey(agent));
        }
        rest.add(layout.pointerKey(agent)); // last: a save racing this delete raises it again after its body
        store.objects().delete(rest);
        return countVersions(agent, bodies);
    }

    /**
     * Deletes the versions strictly below {@code version}; returns how many there were. One listing of the agent's
     * index tells which ids lose their last version: their markers go, while the marker of an id that also has an entry
     * at a kept version stays.
     */
    public int deleteBelow(String agentId, long version) {
        if (version <= 0) {
            return 0;
        }
        String agent = KeyParts.encode(agentId);
        KeyLayout layout = store.layout();
        List<String> bodies = all(layout.bodyFolder(agent), layout.bodiesBelow(agent, version));
        store.objects().delete(bodies);
        var doomed = new ArrayList<String>();
        var orphaned = new LinkedHashSet<String>();
        var kept = new HashSet<String>();
        for (String key : all(layout.indexFolder(agent), null)) {
            IndexEntry entry = layout.indexEntryOf(agent, key);
            if (entry == null) {
                continue;
            }
            if (entry.version() >= version) {
                kept.add(entry.idSegment());
            } else {
                doomed.add(key);
                orphaned.add(entry.idSegment());
            }
        }
        orphaned.removeAll(kept);
        for (String idSegment : orphaned) {
            doomed.add(layout.markerKey(agent, idSegment));
        }
        store.objects().delete(doomed);
        return countVersions(agent, bodies);
    }

    private int countVersions(String agent, List<String> bodies) {
        int count = 0;
        for (String key : bodies) {
            try {
                store.layout().versionOfBody(agent, key);
                count++;
            } catch (NumberFormatException e) {
                // a foreign object in the folder: deleted, not counted
            }
        }
        return count;
    }

    private List<String> all(String folder, String startAfter) {
        var keys = new ArrayList<String>();
        Iterator<String> it = store.objects().keys(folder, startAfter, S3Objects.PAGE);
        it.forEachRemaining(keys::add);
        return keys;
    }
}
