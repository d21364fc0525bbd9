package dev.agentpersistence.file.internal;

import dev.agentpersistence.CorruptCheckpointException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Maps agents and checkpoints to paths under the root and lists what is there:
 * {@code <root>/<agent>/<version>.checkpoint}, {@code <root>/<agent>/.ids/<checkpoint id>}.
 */
public final class FileLayout {

    private final Path root;
    private final DurableFiles files;
    /** Agent and segment directories this layout created or found (see {@link #preparedBefore}). */
    private final Remembered<Path, Boolean> prepared = new Remembered<>();
    /** The paths of recently used agents (each costs an encoding and several path objects). */
    private final Remembered<String, AgentPaths> recentAgents = new Remembered<>();

    public FileLayout(Path root, DurableFiles files) {
        this.root = Objects.requireNonNull(root, "root");
        this.files = Objects.requireNonNull(files, "files");
    }

    /** The root directory. */
    public Path root() {
        return root;
    }

    /** Creates the root directory (and missing parents) when missing, making its entry durable. */
    public void createRoot() throws IOException {
        if (Files.isDirectory(root)) {
            return;
        }
        Files.createDirectories(root);
        if (root.getParent() != null) {
            files.syncDirectory(root.getParent());
        }
    }

    /** The paths of {@code agentId}; nothing is created. */
    public AgentPaths agent(String agentId) {
        return recentAgents.get(agentId).orElseGet(() -> {
            AgentPaths paths = AgentPaths.of(agentId, root.resolve(FileNames.encode(agentId)));
            recentAgents.put(agentId, paths);
            return paths;
        });
    }

    /**
     * The paths of the agent directory {@code directory} (a child of the root) when the agent id is not needed: the
     * directory name stands in for it.
     */
    public AgentPaths atDirectory(Path directory) {
        return AgentPaths.of(directory.getFileName().toString(), directory);
    }

    /** Creates the agent's directories (and its agent id file when the name is hashed). */
    public AgentPaths prepare(String agentId) throws IOException {
        AgentPaths paths = agent(agentId);
        files.ensureDirectory(root);
        files.ensureDirectory(paths.directory());
        files.ensureDirectory(paths.ids());
        if (paths.hashedName()) {
            writeAgentIdFile(paths);
        }
        prepared.put(paths.directory(), true);
        return paths;
    }

    /**
     * Creates the agent's directory (and its agent id file when the name is hashed) for a journal, which needs no id
     * index; like {@link #preparedBefore}, only the first time.
     */
    public AgentPaths journalPreparedBefore(String agentId) throws IOException {
        AgentPaths paths = agent(agentId);
        if (prepared.contains(paths.journal())) {
            return paths;
        }
        files.ensureDirectory(root);
        files.ensureDirectory(paths.directory());
        if (paths.hashedName()) {
            writeAgentIdFile(paths);
        }
        prepared.put(paths.journal(), true);
        return paths;
    }

    /** Forgets that the agent's journal directory was prepared (it was removed under us). */
    public void forgetJournal(String agentId) {
        prepared.remove(agent(agentId).journal());
    }

    /** As {@link #prepare}, also creating the agent's segment directory. */
    public AgentPaths prepareSegments(String agentId) throws IOException {
        AgentPaths paths = prepare(agentId);
        files.ensureDirectory(paths.segments());
        prepared.put(paths.segments(), true);
        return paths;
    }

    /**
     * As {@link #prepare}, but without looking at the directories again when this layout prepared them before: a save
     * then costs no {@code stat} calls for them. A directory removed since (by hand, or with its agent's files) makes
     * the caller's next file operation in it fail with {@link java.nio.file.NoSuchFileException}; the caller then calls
     * {@link #prepare}.
     */
    public AgentPaths preparedBefore(String agentId) throws IOException {
        AgentPaths paths = agent(agentId);
        return prepared.contains(paths.directory()) ? paths : prepare(agentId);
    }

    /** As {@link #preparedBefore}, for {@link #prepareSegments}. */
    public AgentPaths segmentsPreparedBefore(String agentId) throws IOException {
        AgentPaths paths = agent(agentId);
        return prepared.contains(paths.segments()) ? paths : prepareSegments(agentId);
    }

    /** The versions stored for the agent, ascending; empty when the agent has no directory. */
    public long[] versions(AgentPaths paths) throws IOException {
        return versions(paths, null);
    }

    /**
     * As {@link #versions(AgentPaths)}, from the same listing also adding the temporary files
     * ({@link FileNames#TEMP_PREFIX}) of the agent directory to {@code temps} unless it is {@code null}.
     */
    public long[] versions(AgentPaths paths, List<Path> temps) throws IOException {
        long[] versions = new long[16];
        int count = 0;
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(paths.directory())) {
            for (Path file : stream) {
                String name = file.getFileName().toString();
                var version = FileNames.parseVersion(name);
                if (temps != null && name.startsWith(FileNames.TEMP_PREFIX)) {
                    temps.add(file);
                }
                if (version.isPresent()) {
                    if (count == versions.length) {
                        versions = Arrays.copyOf(versions, count * 2);
                    }
                    versions[count++] = version.getAsLong();
                }
            }
        } catch (NoSuchFileException | NotDirectoryException e) {
            return new long[0];
        } catch (DirectoryIteratorException e) {
            throw e.getCause();
        }
        long[] sorted = Arrays.copyOf(versions, count);
        Arrays.sort(sorted);
        return sorted;
    }

    /** Whether the agent directory holds at least one checkpoint file (stops at the first). */
    public boolean hasCheckpoints(Path agentDirectory) throws IOException {
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(agentDirectory)) {
            for (Path file : stream) {
                if (FileNames.parseVersion(file.getFileName().toString()).isPresent()) {
                    return true;
                }
            }
            return false;
        } catch (NoSuchFileException | NotDirectoryException e) {
            return false;
        } catch (DirectoryIteratorException e) {
            throw e.getCause();
        }
    }

    private void writeAgentIdFile(AgentPaths paths) throws IOException {
        Path target = paths.agentIdFile();
        if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            Path temp = files.writeTemp(paths.directory(), paths.agentId().getBytes(StandardCharsets.UTF_8));
            try {
                files.linkIfAbsent(target, temp);
            } finally {
                files.deleteQuietly(temp);
            }
            files.syncDirectory(paths.directory());
        }
        String stored = new String(Files.readAllBytes(target), StandardCharsets.UTF_8);
        if (!stored.equals(paths.agentId())) {
            throw new CorruptCheckpointException(
                    paths.agentId(),
                    null,
                    target.toString(),
                    "the directory is filed for agent '" + stored + "'",
                    null);
        }
    }
}
