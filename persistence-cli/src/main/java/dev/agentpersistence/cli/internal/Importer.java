package dev.agentpersistence.cli.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.SaveResult;
import dev.agentpersistence.cli.CliException;
import dev.agentpersistence.cli.ExitCode;
import dev.agentpersistence.codec.CheckpointLocation;
import dev.agentpersistence.codec.CodecSettings;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Reads a file in the {@link ExportFormat} line by line and saves its checkpoints into a store, a page at a time with
 * one batch save ({@code saveCheckpoints}). Saving is idempotent (a checkpoint already there with the same content is
 * left alone), so an interrupted import is completed by running it again. The end line is checked: a file that ends
 * early or whose checkpoint lines were altered is reported after the checkpoints before it are saved.
 */
public final class Importer {
    /**
     * What was read and saved.
     *
     * @param checkpoints the checkpoint lines of the file
     * @param agents the agents they belong to
     * @param alreadyThere the checkpoints the store already held (left alone)
     */
    public record Summary(long checkpoints, long agents, long alreadyThere) {
        /** The checkpoints this import saved. */
        public long saved() {
            return checkpoints - alreadyThere;
        }
    }

    /** Checkpoints saved by one batch save. */
    private static final int PAGE = 200;
    /** Characters of checkpoint lines held before they are saved, whatever their number. */
    private static final long PAGE_CHARS = 8L << 20;

    /** Room for a checkpoint line's envelope besides the checkpoint. */
    private static final long ENVELOPE = 64 * 1024;

    private Importer() {}

    /**
     * Imports from {@code in} (named {@code source} in errors) into {@code store}. No line longer than the store's
     * largest checkpoint ({@link CodecSettings#MAX_CHECKPOINT_SIZE}) and its envelope is held in memory.
     *
     * @throws CliException when the file is not in the format, is newer, has a line longer than that, or does not end
     *     as its end line says
     */
    public static Summary importFrom(Reader in, String source, Store store, Progress progress) {
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(store, "store");
        var lines = new BoundedLines(in, CodecSettings.MAX_CHECKPOINT_SIZE.read(store.config()) + ENVELOPE, source);
        var pending = new Pending(store, progress);
        var digest = new Digest();
        Set<String> agents = new HashSet<>();
        long count = 0;
        long lineNumber = 0;
        JsonNode end = null;
        progress.start("checkpoints imported", -1);
        try {
            String line;
            while ((line = lines.next()) != null) {
                lineNumber = lines.lineNumber();
                if (line.isBlank()) {
                    continue;
                }
                JsonNode json = parse(line, source, lineNumber);
                if (lineNumber == 1) {
                    checkHeader(json, source);
                    continue;
                }
                if (end != null) {
                    throw new CliException(
                            ExitCode.PROBLEMS_FOUND, source + " line " + lineNumber + ": data after the end line");
                }
                switch (ExportFormat.type(json)) {
                    case "checkpoint" -> {
                        AgentCheckpoint checkpoint = Json.checkpoint(
                                json.path("checkpoint"),
                                new CheckpointLocation(
                                        json.path("checkpoint").path("agentId").asText("?"),
                                        json.path("checkpoint")
                                                .path("checkpointId")
                                                .asText("?"),
                                        source + " line " + lineNumber));
                        pending.add(checkpoint, line.length());
                        digest.addLine(line);
                        agents.add(checkpoint.agentId());
                        count++;
                    }
                    case "end" -> end = json;
                    default ->
                        throw CliException.usage(source + " line " + lineNumber + ": unknown line type '"
                                + ExportFormat.type(json) + "'");
                }
            }
            pending.save();
        } catch (IOException e) {
            pending.save();
            throw new UncheckedIOException(e);
        } catch (CliException e) {
            pending.save();
            throw e;
        }
        progress.finish();
        if (lineNumber == 0) {
            throw CliException.usage(source + " is empty: no export header");
        }
        checkEnd(end, count, digest, source);
        return new Summary(count, agents.size(), pending.alreadyThere);
    }

    /**
     * The checkpoints read but not yet saved: saved with one batch save once {@value #PAGE} of them or
     * {@value #PAGE_CHARS} characters of their lines are held, so memory stays bounded by one page.
     */
    private static final class Pending {
        private final Store store;
        private final Progress progress;
        private final List<AgentCheckpoint> checkpoints = new ArrayList<>();
        private long chars;
        private long alreadyThere;

        Pending(Store store, Progress progress) {
            this.store = store;
            this.progress = progress;
        }

        void add(AgentCheckpoint checkpoint, int lineLength) {
            checkpoints.add(checkpoint);
            chars += lineLength;
            if (checkpoints.size() >= PAGE || chars >= PAGE_CHARS) {
                save();
            }
        }

        /** Saves what is held; the first conflict is thrown once the page is saved. */
        void save() {
            if (checkpoints.isEmpty()) {
                return;
            }
            for (AgentCheckpoint checkpoint : checkpoints) {
                if (store.provider()
                        .getCheckpoint(checkpoint.agentId(), checkpoint.checkpointId())
                        .isPresent()) {
                    alreadyThere++;
                }
            }
            List<SaveResult> results = store.provider().saveCheckpoints(List.copyOf(checkpoints));
            progress.advance(checkpoints.size());
            checkpoints.clear();
            chars = 0;
            for (SaveResult result : results) {
                if (result.conflict().isPresent()) {
                    throw result.conflict().get();
                }
            }
        }
    }

    private static JsonNode parse(String line, String source, long lineNumber) {
        try {
            return Json.MAPPER.readTree(line);
        } catch (JsonProcessingException e) {
            throw CliException.usage(source + " line " + lineNumber + " is not JSON: " + e.getOriginalMessage());
        }
    }

    private static void checkHeader(JsonNode header, String source) {
        if (!"header".equals(ExportFormat.type(header))
                || !ExportFormat.FORMAT.equals(header.path("format").asText())) {
            throw CliException.usage(source + " is not an agent-persistence export: its first line is not the header");
        }
        int version = header.path("version").asInt(-1);
        if (version < 1 || version > ExportFormat.VERSION) {
            throw CliException.usage(source + " has export format version " + header.path("version")
                    + "; this build reads versions 1 to " + ExportFormat.VERSION);
        }
    }

    private static void checkEnd(JsonNode end, long count, Digest digest, String source) {
        if (end == null) {
            throw new CliException(
                    ExitCode.PROBLEMS_FOUND,
                    source + " ends without its end line (truncated?); the " + count
                            + " checkpoints read were imported");
        }
        if (end.path("checkpoints").asLong(-1) != count) {
            throw new CliException(
                    ExitCode.PROBLEMS_FOUND,
                    source + " has " + count + " checkpoints but its end line says " + end.path("checkpoints"));
        }
        if (!digest.hex().equals(end.path("sha256").asText())) {
            throw new CliException(
                    ExitCode.PROBLEMS_FOUND,
                    source + ": the checkpoint lines do not match the SHA-256 of its end line");
        }
    }
}
