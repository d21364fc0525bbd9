package dev.agentpersistence.file.internal;

import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.Identifiers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists the agents that have at least one checkpoint: decodes the directory names under the root (a hashed name is
 * resolved through its agent id file). Empty agent directories and entries this layout never creates are left out.
 */
public final class AgentLister {

    private final FileLayout layout;
    private final boolean skipCorrupt;

    public AgentLister(FileLayout layout, boolean skipCorrupt) {
        this.layout = Objects.requireNonNull(layout, "layout");
        this.skipCorrupt = skipCorrupt;
    }

    /** What an agent directory must hold for its agent to be listed. */
    @FunctionalInterface
    public interface Holding {
        boolean test(Path agentDirectory) throws IOException;
    }

    /** The agent ids, sorted. */
    public List<String> list() {
        return list(layout::hasCheckpoints);
    }

    /** The ids of agents whose directory passes {@code holding}, sorted. */
    public List<String> list(Holding holding) {
        var agents = new ArrayList<String>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(layout.root())) {
            for (Path directory : stream) {
                if (Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS) && holding.test(directory)) {
                    agentId(directory).ifPresent(agents::add);
                }
            }
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw IoFailures.unavailable("list agents in", layout.root(), e);
        } catch (DirectoryIteratorException e) {
            throw IoFailures.unavailable("list agents in", layout.root(), e.getCause());
        }
        Collections.sort(agents);
        return List.copyOf(agents);
    }

    private Optional<String> agentId(Path directory) throws IOException {
        String name = directory.getFileName().toString();
        if (!FileNames.isHashed(name)) {
            return FileNames.decode(name);
        }
        Path file = directory.resolve(FileNames.AGENT_ID_FILE);
        String problem;
        try {
            String id = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
            if (Identifiers.isValid(id) && FileNames.encode(id).equals(name)) {
                return Optional.of(id);
            }
            problem = "it does not hold the id of the agent whose directory it is in";
        } catch (NoSuchFileException e) {
            problem = "the agent id file is missing";
        }
        var corrupt = new CorruptCheckpointException(name, null, file.toString(), problem, null);
        if (!skipCorrupt) {
            throw corrupt;
        }
        log().warn("Skipping agent directory: {}", corrupt.getMessage());
        return Optional.empty();
    }

    /** Looked up when a line is logged: binding SLF4J takes a fresh JVM tens of milliseconds; most runs log nothing. */
    private static Logger log() {
        return LoggerFactory.getLogger(AgentLister.class);
    }
}
