package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A directory as pipeline state: file access, backup/restore on disk, and the checkpoint form. */
class FileWorkspaceTest {
    @TempDir
    Path tmp;

    @Test
    void readsAndWritesFilesInsideTheRootOnly() {
        FileWorkspace ws = FileWorkspace.at(tmp.resolve("ws"));
        ws.write("docs/guide.md", "hello ✓");

        assertThat(ws.read("docs/guide.md")).isEqualTo("hello ✓");
        assertThat(ws.readIfExists("missing.md")).isEmpty();
        assertThat(ws.files()).containsExactly("docs/guide.md");
        assertThatThrownBy(() -> ws.read("missing.md")).isInstanceOf(UncheckedIOException.class);
        assertThatThrownBy(() -> ws.write("../escape.md", "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ws.resolve("/etc/passwd")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ws.resolve("docs/../..")).isInstanceOf(IllegalArgumentException.class);
        ws.delete("docs");
        assertThat(ws.files()).isEmpty();
        assertThat(FileWorkspace.at(tmp.resolve("ws"))).isEqualTo(ws);
    }

    @Test
    void restoringABackupUndoesEditsCreationsAndDeletions() throws Exception {
        FileWorkspace ws = FileWorkspace.at(tmp.resolve("ws"));
        StateCodec<FileWorkspace> codec = FileWorkspace.codec(ws.root());
        ws.write("doc.md", "original");
        ws.write("keep/notes.txt", "notes");
        ws.writeBytes("img.bin", new byte[] {0, (byte) 0xff, 1});

        StateBackup<FileWorkspace> backup = codec.backup(ws);
        ws.write("doc.md", "edited");
        ws.write("new/file.md", "created");
        ws.delete("keep");

        assertThat(backup.restore()).isEqualTo(ws);
        backup.discard();

        assertThat(ws.files()).containsExactly("doc.md", "img.bin", "keep/notes.txt");
        assertThat(ws.read("doc.md")).isEqualTo("original");
        assertThat(ws.readBytes("img.bin")).containsExactly(0, 0xff, 1);
        assertThat(Files.exists(ws.root().resolve("new"))).isFalse();
    }

    @Test
    void discardDeletesTheBackupCopy() throws Exception {
        FileWorkspace ws = FileWorkspace.at(tmp.resolve("ws"));
        ws.write("a.md", "a");
        long before = backups();
        StateBackup<FileWorkspace> backup = FileWorkspace.codec(ws.root()).backup(ws);
        assertThat(backups()).isEqualTo(before + 1);
        backup.discard();
        assertThat(backups()).isEqualTo(before);
    }

    @Test
    void checkpointFormHoldsTheContentsAndDecodingRewritesTheDirectory() {
        FileWorkspace ws = FileWorkspace.at(tmp.resolve("ws"));
        StateCodec<FileWorkspace> codec = FileWorkspace.codec(ws.root());
        ws.write("b/doc.md", "text\n");
        ws.writeBytes("a.bin", new byte[] {(byte) 0xc3, 0x28});

        JsonNode json = codec.encode(ws);
        assertThat(json.path("files").path("b/doc.md").path("text").asText()).isEqualTo("text\n");
        assertThat(json.path("files").path("a.bin").path("base64").asText()).isEqualTo("wyg=");
        assertThat(json.path("files").fieldNames()).toIterable().containsExactly("a.bin", "b/doc.md");

        ws.write("b/doc.md", "changed");
        ws.write("extra.md", "extra");
        ws.delete("a.bin");
        FileWorkspace restored = codec.decode(json);

        assertThat(restored.files()).containsExactly("a.bin", "b/doc.md");
        assertThat(restored.read("b/doc.md")).isEqualTo("text\n");
        assertThat(restored.readBytes("a.bin")).containsExactly(0xc3, 0x28);
        assertThat(codec.encode(restored)).isEqualTo(json);
    }

    @Test
    void codecRefusesOtherWorkspacesAndForeignJson() {
        StateCodec<FileWorkspace> codec = FileWorkspace.codec(tmp.resolve("ws"));
        FileWorkspace other = FileWorkspace.at(tmp.resolve("other"));

        assertThatThrownBy(() -> codec.encode(other))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("this codec is for the workspace");
        assertThatThrownBy(() -> codec.backup(other)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(
                        () -> codec.decode(JsonNodeFactory.instance.objectNode().put("x", 1)))
                .isInstanceOf(IllegalArgumentException.class);
        var escaping = JsonNodeFactory.instance.objectNode();
        escaping.putObject("files").putObject("../outside.md").put("text", "x");
        assertThatThrownBy(() -> codec.decode(escaping)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Files.exists(tmp.resolve("outside.md"))).isFalse();
    }

    private static long backups() throws Exception {
        try (var entries = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return entries.filter(p -> p.getFileName().toString().startsWith("workspace-backup-"))
                    .count();
        }
    }
}
