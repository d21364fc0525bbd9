package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Nothing a {@link FileWorkspace} writes, reads or deletes leaves its root: no link is followed, no path climbs out.
 */
class FileWorkspaceLinksTest {
    @TempDir
    Path tmp;

    private Path outside;
    private FileWorkspace ws;
    private StateCodec<FileWorkspace> codec;

    @BeforeEach
    void workspaceWithLinksOut() throws Exception {
        outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("victim.txt"), "outside");
        ws = FileWorkspace.at(tmp.resolve("ws"));
        codec = FileWorkspace.codec(ws.root());
        ws.write("doc.md", "inside");
        Files.createSymbolicLink(ws.root().resolve("dirlink"), outside);
        Files.createSymbolicLink(ws.root().resolve("filelink"), outside.resolve("victim.txt"));
        Files.createDirectories(ws.root().resolve("a"));
        Files.createSymbolicLink(ws.root().resolve("a/b"), outside);
    }

    @ParameterizedTest
    @ValueSource(strings = {"dirlink/new.txt", "dirlink/victim.txt", "a/b/new.txt", "a/b/c/d/new.txt", "filelink"})
    void writesThroughALinkAreRefused(String path) {
        assertThatThrownBy(() -> ws.write(path, "pwned"))
                .isInstanceOf(WorkspaceLinkException.class)
                .hasMessageContaining(path)
                .satisfies(e ->
                        assertThat(((WorkspaceLinkException) e).relativePath()).isEqualTo(path));
        assertOutsideUntouched();
    }

    @ParameterizedTest
    @ValueSource(strings = {"dirlink/victim.txt", "a/b/victim.txt", "filelink"})
    void readsThroughALinkAreRefused(String path) {
        assertThatThrownBy(() -> ws.read(path)).isInstanceOf(WorkspaceLinkException.class);
        assertThatThrownBy(() -> ws.readBytes(path)).isInstanceOf(WorkspaceLinkException.class);
        assertThatThrownBy(() -> ws.exists(path)).isInstanceOf(WorkspaceLinkException.class);
    }

    @Test
    void deletesBelowALinkAreRefusedAndDeletingALinkRemovesOnlyTheLink() {
        assertThatThrownBy(() -> ws.delete("dirlink/victim.txt"))
                .isInstanceOf(WorkspaceLinkException.class)
                .satisfies(e -> assertThat(((WorkspaceLinkException) e).link())
                        .isEqualTo(ws.root().resolve("dirlink")));
        assertThatThrownBy(() -> ws.delete("a/b/victim.txt")).isInstanceOf(WorkspaceLinkException.class);
        ws.delete("dirlink");
        ws.delete("filelink");
        ws.delete("a");
        assertThat(Files.exists(ws.root().resolve("dirlink"), java.nio.file.LinkOption.NOFOLLOW_LINKS))
                .isFalse();
        assertThat(ws.files()).containsExactly("doc.md");
        assertOutsideUntouched();
    }

    @Test
    void decodingAStateThroughALinkIsRefusedAndWritesNothingOutside() {
        for (String path : new String[] {"dirlink/victim.txt", "dirlink/new.txt", "a/b/new.txt", "filelink"}) {
            ObjectNode state = JsonNodeFactory.instance.objectNode();
            state.putObject("files").putObject(path).put("text", "pwned");
            assertThatThrownBy(() -> codec.decode(state))
                    .as(path)
                    .isInstanceOf(WorkspaceLinkException.class)
                    .hasMessageContaining(path);
            assertOutsideUntouched();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"../escape.txt", "a/../../escape.txt", "..", "/tmp/escape.txt", "./../escape.txt"})
    void pathsClimbingOutOrAbsoluteAreRefused(String path) {
        Path absolute = tmp.resolve("escape.txt");
        String target = path.startsWith("/") ? absolute.toString() : path;
        assertThatThrownBy(() -> ws.write(target, "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ws.delete(target)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ws.read(target)).isInstanceOf(IllegalArgumentException.class);
        ObjectNode state = JsonNodeFactory.instance.objectNode();
        state.putObject("files").putObject(target).put("text", "x");
        assertThatThrownBy(() -> codec.decode(state)).isInstanceOf(IllegalArgumentException.class);
        assertThat(absolute).doesNotExist();
    }

    @Test
    void backupAndRestoreKeepLinksAsLinksAndNeverTouchTheirTargets() throws Exception {
        StateBackup<FileWorkspace> backup = codec.backup(ws);
        ws.write("doc.md", "edited");
        ws.delete("dirlink");
        ws.write("new.md", "new");
        ws = backup.restore();
        backup.discard();
        assertThat(Files.isSymbolicLink(ws.root().resolve("dirlink"))).isTrue();
        assertThat(Files.readSymbolicLink(ws.root().resolve("dirlink"))).isEqualTo(outside);
        assertThat(Files.isSymbolicLink(ws.root().resolve("filelink"))).isTrue();
        assertThat(Files.isSymbolicLink(ws.root().resolve("a/b"))).isTrue();
        assertThat(ws.files()).containsExactly("doc.md");
        assertThat(ws.read("doc.md")).isEqualTo("inside");
        assertThat(codec.encode(ws).path("files").size()).isEqualTo(1);
        assertOutsideUntouched();
    }

    private void assertOutsideUntouched() {
        try (var listing = Files.list(outside)) {
            assertThat(listing.map(p -> p.getFileName().toString()).toList()).containsExactly("victim.txt");
            assertThat(Files.readString(outside.resolve("victim.txt"))).isEqualTo("outside");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
