package dev.agentpersistence.file.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The identity of the running boot of this host: Linux's {@code /proc/sys/kernel/random/boot_id}, new after every
 * restart, so after a power loss or kernel crash. A head file is trusted only by readers of the boot that wrote it
 * ({@link AgentHead}).
 */
final class BootId {
    private static final Path LINUX = Path.of("/proc/sys/kernel/random/boot_id");
    private static final Pattern VALID = Pattern.compile("[0-9a-zA-Z-]{1,64}");

    private BootId() {}

    /** The boot id; empty where the platform does not tell it. */
    static Optional<String> read() {
        try {
            if (!Files.isReadable(LINUX)) {
                return Optional.empty();
            }
            String id = Files.readString(LINUX, StandardCharsets.US_ASCII).trim();
            return VALID.matcher(id).matches() && !id.equals(HeadFormat.UNKNOWN_HOST)
                    ? Optional.of(id)
                    : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
