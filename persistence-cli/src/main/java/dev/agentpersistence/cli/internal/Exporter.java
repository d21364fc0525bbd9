package dev.agentpersistence.cli.internal;

import dev.agentpersistence.AgentCheckpoint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.time.Instant;
import java.util.Objects;

/** Writes the checkpoints a {@link Selection} takes from a store in the {@link ExportFormat}, page by page. */
public final class Exporter {
    /** What was written. */
    public record Summary(long checkpoints, long agents, String sha256) {}

    private Exporter() {}

    /** Exports to {@code out} (not closed), counting on {@code progress}. */
    public static Summary export(Store store, Selection selection, Writer out, Instant now, Progress progress) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(out, "out");
        var digest = new Digest();
        long[] count = {0};
        long agents = 0;
        try {
            write(out, Json.line(ExportFormat.header(store.description(), selection, now)));
            progress.start("checkpoints exported", -1);
            for (String agentId : selection.agentsIn(store)) {
                long before = count[0];
                store.pages(agentId, selection.filter(), page -> {
                    for (int i = page.size() - 1; i >= 0; i--) {
                        AgentCheckpoint checkpoint = page.get(i);
                        String line = Json.line(ExportFormat.checkpoint(checkpoint));
                        write(out, line);
                        digest.addLine(line);
                        count[0]++;
                    }
                    progress.advance(page.size());
                    return true;
                });
                agents += count[0] > before ? 1 : 0;
            }
            write(out, Json.line(ExportFormat.end(count[0], agents, digest.hex())));
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        progress.finish();
        return new Summary(count[0], agents, digest.hex());
    }

    private static void write(Writer out, String line) {
        try {
            out.write(line);
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
