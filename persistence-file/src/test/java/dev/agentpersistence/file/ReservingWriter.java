package dev.agentpersistence.file;

import dev.agentpersistence.codec.CheckpointCodec;
import dev.agentpersistence.file.internal.DurableFiles;
import dev.agentpersistence.file.internal.FileLayout;
import dev.agentpersistence.file.internal.Fsync;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;

/**
 * A writer that stops between the steps of a save: writes the temporary file and reserves the id exactly as the
 * provider does (steps 1 and 2), writes the temporary file's name to the ready file, then waits — without publishing —
 * until it is killed. Arguments: root, agent id, checkpoint version, checkpoint id, writer name (see
 * {@link TestCheckpoints#checkpoint}), ready file.
 */
public final class ReservingWriter {
    private ReservingWriter() {}

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        String agentId = args[1];
        var checkpoint = TestCheckpoints.checkpoint(agentId, Long.parseLong(args[2]), args[3], args[4]);
        Path ready = Path.of(args[5]);

        var files = new DurableFiles(Fsync.system());
        var layout = new FileLayout(root, files);
        var paths = layout.prepare(agentId);
        Path temp = files.writeTemp(paths.directory(), CheckpointCodec.json().encode(checkpoint));
        if (!files.linkIfAbsent(paths.idEntry(checkpoint.checkpointId()), temp)) {
            throw new IllegalStateException("the id is taken already");
        }
        files.syncDirectory(paths.ids());

        Path signal = ready.resolveSibling(ready.getFileName() + ".tmp");
        Files.writeString(signal, temp.getFileName().toString());
        Files.move(signal, ready, StandardCopyOption.ATOMIC_MOVE);
        TimeUnit.MINUTES.sleep(5); // the pause point: killed here by the test
        throw new IllegalStateException("not killed in time");
    }
}
