package dev.agentpersistence.examples.jsonl;

import dev.agentpersistence.backend.StoredCheckpoint;
import java.time.Instant;
import java.util.Map;

/**
 * One line of an agent's file: {@code {"a":"agent","v":3,"id":"cp-3","t":"2026-…Z","n":"node","d":false,"m":{…},"b":"<base64>"}}
 * — agent, version, checkpoint id, creation time, node, tombstone flag, metadata and the stored document.
 */
record JsonLinesLine(String a, long v, String id, String t, String n, boolean d, Map<String, String> m, byte[] b) {

    static JsonLinesLine of(StoredCheckpoint r) {
        return new JsonLinesLine(r.agentId(), r.version(), r.checkpointId(), r.createdAt().toString(), r.nodeId(),
                r.tombstone(), r.metadata(), r.document());
    }

    StoredCheckpoint record() {
        return new StoredCheckpoint(a, id, v, Instant.parse(t), null, n, d, m, b);
    }
}
