package dev.agentpersistence.examples.jsonl;

import dev.agentpersistence.spi.HistorySegmentStore;
import dev.agentpersistence.spi.SegmentInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** History segments as one JSON Lines file per agent: a line per segment with its write time. */
final class JsonLinesSegments implements HistorySegmentStore {
    /** One segment: agent, segment id, write time, bytes. */
    record Line(String a, String s, String w, byte[] b) {
    }

    private final JsonLinesFiles files;

    JsonLinesSegments(JsonLinesFiles files) {
        this.files = files;
    }

    @Override
    public void putSegment(String agentId, String segmentId, byte[] content) {
        files.locked(() -> {
            var lines = new ArrayList<Line>();
            byte[] bytes = content;
            for (Line line : read(agentId)) {
                if (line.s().equals(segmentId)) {
                    bytes = line.b(); // never replace the bytes of an existing segment
                } else {
                    lines.add(line);
                }
            }
            lines.add(new Line(agentId, segmentId, Instant.now().toString(), bytes));
            files.rewrite(files.file(agentId), lines);
            return null;
        });
    }

    @Override
    public Map<String, byte[]> getSegments(String agentId, Collection<String> segmentIds) {
        var found = new HashMap<String, byte[]>();
        read(agentId).stream().filter(line -> segmentIds.contains(line.s())).forEach(line -> found.put(line.s(), line.b()));
        return found;
    }

    @Override
    public List<SegmentInfo> listSegments(String agentId) {
        return read(agentId).stream().map(line -> new SegmentInfo(line.s(), Instant.parse(line.w())))
                .sorted(Comparator.comparing(SegmentInfo::segmentId)).toList();
    }

    @Override
    public int deleteSegments(String agentId, Collection<String> segmentIds, Instant writtenBefore) {
        return files.locked(() -> {
            List<Line> all = read(agentId);
            List<Line> kept = all.stream().filter(line -> !segmentIds.contains(line.s())
                    || !Instant.parse(line.w()).isBefore(writtenBefore)).toList();
            if (kept.size() < all.size()) {
                files.rewrite(files.file(agentId), kept);
            }
            return all.size() - kept.size();
        });
    }

    @Override
    public List<String> listSegmentAgents() {
        return files.files().stream().flatMap(f -> files.read(f, Line.class).stream().limit(1)).map(Line::a).sorted()
                .toList();
    }

    private List<Line> read(String agentId) {
        return files.read(files.file(agentId), Line.class);
    }
}
