package dev.agentpersistence.pipeline;

import dev.agentpersistence.PersistenceException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A {@link FileWorkspace} refused a path because a symbolic link lies on it (or, once resolved, it would lead outside
 * the workspace root): the workspace never reads, writes or deletes through a link, so nothing it touches can leave its
 * root.
 */
public final class WorkspaceLinkException extends PersistenceException {
    private final String relativePath;
    private final Path link;

    /**
     * @param relativePath the path the caller asked for, relative to the root
     * @param link the symbolic link on it, or the path that leads outside the root
     * @param root the workspace root
     */
    public WorkspaceLinkException(String relativePath, Path link, Path root) {
        super("Workspace path '" + relativePath + "' goes through the symbolic link " + link
                + "; the workspace " + root + " does not follow links, so nothing it writes, reads or deletes"
                + " leaves it");
        this.relativePath = Objects.requireNonNull(relativePath, "relativePath");
        this.link = Objects.requireNonNull(link, "link");
    }

    /** The path that was asked for, relative to the workspace root. */
    public String relativePath() {
        return relativePath;
    }

    /** The symbolic link on the path (absolute). */
    public Path link() {
        return link;
    }
}
