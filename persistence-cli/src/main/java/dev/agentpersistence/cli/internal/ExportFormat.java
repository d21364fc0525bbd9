package dev.agentpersistence.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.AgentCheckpoint;
import java.time.Instant;

/**
 * The export format, version {@value #VERSION}: JSON Lines, UTF-8, one JSON object per line; its JSON Schema is
 * {@code docs/export-format.schema.json}.
 *
 * <ol>
 *   <li>a header: {@code {"type":"header","format":"agent-persistence-export","version":1,"exportedAt":…,
 *       "source":…,"selection":{…}}};
 *   <li>one line per checkpoint: {@code {"type":"checkpoint","checkpoint":{…}}}, the checkpoint in the stored JSON form
 *       (with its own {@code formatVersion}); agents in sorted order, each agent's checkpoints newest first;
 *   <li>an end line: {@code {"type":"end","checkpoints":N,"agents":M,"sha256":"…"}}, the SHA-256 of the checkpoint
 *       lines as written (UTF-8, each with its line feed), so a truncated or altered file is found.
 * </ol>
 */
public final class ExportFormat {
    /** The value of the header's {@code format}. */
    public static final String FORMAT = "agent-persistence-export";
    /** The version this build writes and the newest it reads. */
    public static final int VERSION = 1;

    private ExportFormat() {}

    /** The header line. */
    public static ObjectNode header(String source, Selection selection, Instant exportedAt) {
        ObjectNode header = Json.object();
        header.put("type", "header");
        header.put("format", FORMAT);
        header.put("version", VERSION);
        header.put("exportedAt", exportedAt.toString());
        header.put("source", source);
        ObjectNode filter = header.putObject("selection");
        var agents = filter.putArray("agents");
        selection.agents().forEach(agents::add);
        if (selection.since() != null) {
            filter.put("since", selection.since().toString());
        }
        if (selection.until() != null) {
            filter.put("until", selection.until().toString());
        }
        return header;
    }

    /** The line of one checkpoint. */
    public static ObjectNode checkpoint(AgentCheckpoint checkpoint) {
        ObjectNode line = Json.object();
        line.put("type", "checkpoint");
        line.set("checkpoint", Json.checkpoint(checkpoint));
        return line;
    }

    /** The end line. */
    public static ObjectNode end(long checkpoints, long agents, String sha256) {
        ObjectNode end = Json.object();
        end.put("type", "end");
        end.put("checkpoints", checkpoints);
        end.put("agents", agents);
        end.put("sha256", sha256);
        return end;
    }

    /** The {@code type} of a line, or {@code ""}. */
    public static String type(JsonNode line) {
        return line.path("type").asText("");
    }
}
