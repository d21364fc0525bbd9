package dev.agentpersistence.pipeline.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpersistence.pipeline.FileWorkspace;
import dev.agentpersistence.pipeline.StateBackup;
import dev.agentpersistence.pipeline.StateCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * {@link StateCodec} of a {@link FileWorkspace}. JSON form: {@code {"files": {"doc.md": {"text": "..."}, "img.png":
 * {"base64": "..."}}}}, paths sorted. Backups are directory copies in a temporary directory.
 */
public final class FileWorkspaceCodec implements StateCodec<FileWorkspace> {
    private static final String FILES = "files";
    private static final String TEXT = "text";
    private static final String BASE64 = "base64";

    private final FileWorkspace workspace;

    public FileWorkspaceCodec(FileWorkspace workspace) {
        this.workspace = workspace;
    }

    @Override
    public JsonNode encode(FileWorkspace state) {
        requireOwn(state);
        ObjectNode files = JsonNodeFactory.instance.objectNode();
        for (String path : workspace.files()) {
            byte[] bytes = workspace.readBytes(path);
            ObjectNode entry = files.putObject(path);
            utf8(bytes)
                    .ifPresentOrElse(
                            text -> entry.put(TEXT, text),
                            () -> entry.put(BASE64, Base64.getEncoder().encodeToString(bytes)));
        }
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.set(FILES, files);
        return json;
    }

    @Override
    public FileWorkspace decode(JsonNode json) {
        if (json == null || !json.path(FILES).isObject()) {
            throw new IllegalArgumentException("not a file workspace state: expected an object with \"files\"");
        }
        var wanted = new HashSet<String>();
        for (Iterator<Map.Entry<String, JsonNode>> it = json.get(FILES).fields(); it.hasNext(); ) {
            var file = it.next();
            JsonNode entry = file.getValue();
            byte[] bytes;
            if (entry.path(TEXT).isTextual()) {
                bytes = entry.get(TEXT).asText().getBytes(StandardCharsets.UTF_8);
            } else if (entry.path(BASE64).isTextual()) {
                bytes = Base64.getDecoder().decode(entry.get(BASE64).asText());
            } else {
                throw new IllegalArgumentException(
                        "file workspace entry '" + file.getKey() + "' has neither text nor base64");
            }
            wanted.add(file.getKey());
            byte[] current = workspace.exists(file.getKey()) ? workspace.readBytes(file.getKey()) : null;
            if (current == null || !java.util.Arrays.equals(current, bytes)) {
                workspace.writeBytes(file.getKey(), bytes);
            }
        }
        for (String existing : workspace.files()) {
            if (!wanted.contains(existing)) {
                workspace.delete(existing);
            }
        }
        return workspace;
    }

    @Override
    public StateBackup<FileWorkspace> backup(FileWorkspace state) {
        requireOwn(state);
        Path copy;
        try {
            copy = Files.createTempDirectory("workspace-backup-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a backup directory for " + workspace.root(), e);
        }
        try {
            FileTrees.copyContents(workspace.root(), copy);
        } catch (RuntimeException e) {
            FileTrees.deleteTree(copy);
            throw e;
        }
        return new StateBackup<>() {
            @Override
            public FileWorkspace restore() {
                FileTrees.deleteContents(workspace.root());
                FileTrees.copyContents(copy, workspace.root());
                return workspace;
            }

            @Override
            public void discard() {
                FileTrees.deleteTree(copy);
            }
        };
    }

    private void requireOwn(FileWorkspace state) {
        if (!workspace.equals(state)) {
            throw new IllegalArgumentException(
                    "this codec is for the workspace " + workspace.root() + " but was given " + state);
        }
    }

    private static Optional<String> utf8(byte[] bytes) {
        try {
            return Optional.of(StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return "FileWorkspace.codec(" + workspace.root() + ")";
    }
}
