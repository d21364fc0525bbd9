package dev.agentpersistence.examples.demo;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.pipeline.Pipeline;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;

/**
 * A run's checkpoints as a text table: version, node, created, messages, size, and for a claim checkpoint the version
 * it copies.
 */
public final class HistoryTable {
    private static final DateTimeFormatter CREATED =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS", Locale.ROOT).withZone(ZoneOffset.UTC);
    private static final String FORMAT = "  %-8s %-21s %-24s %8s %9s";

    private HistoryTable() {}

    /** The table's lines, a header first; checkpoints in the order given (ascending versions). */
    public static List<String> lines(List<AgentCheckpoint> checkpoints) {
        var lines = new ArrayList<String>();
        lines.add(String.format(Locale.ROOT, FORMAT, "version", "node", "created (UTC)", "messages", "size"));
        var codec = CheckpointCodec.json();
        var versions = new HashMap<String, Long>();
        for (AgentCheckpoint cp : checkpoints) {
            versions.put(cp.checkpointId(), cp.version());
            String claimed = cp.metadata().get(Pipeline.CLAIMED_METADATA_KEY);
            String note = claimed == null
                    ? ""
                    : "  claim: a copy of " + (versions.containsKey(claimed) ? "v" + versions.get(claimed) : claimed);
            lines.add(String.format(
                            Locale.ROOT,
                            FORMAT,
                            cp.version(),
                            cp.nodeId(),
                            CREATED.format(cp.createdAt()),
                            cp.messageHistory().size(),
                            ProgressPrinter.size(codec.encode(cp).length))
                    + note);
        }
        return lines;
    }
}
