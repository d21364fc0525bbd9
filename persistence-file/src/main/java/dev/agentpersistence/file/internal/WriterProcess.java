package dev.agentpersistence.file.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * The process that writes a temporary file, recorded in the file's name: {@code .tmp-<host>_<pid>_<start>_<uuid>},
 * where {@code host} is a hash of the host name and PID namespace and {@code start} the process start time in epoch
 * milliseconds. It lets a writer recognise at once that a reservation's owner is dead (no process with that PID, or one
 * started at another time: the PID was reused). Only owners on this host (and PID namespace) can be judged, and only
 * where other processes are visible; other owners, and names without an owner, are left to the grace period.
 *
 * @param host hash of the host name and PID namespace, {@value #HOST_LENGTH} hex digits
 * @param pid the process id
 * @param startMillis the process start time, epoch milliseconds
 */
record WriterProcess(String host, long pid, long startMillis) {
    static final int HOST_LENGTH = 12;
    private static final char SEPARATOR = '_';

    /** Holds the pattern of owned temporary names, compiled when a name is first read: writing one never needs it. */
    private static final class Names {
        static final Pattern OWNED = Pattern.compile(Pattern.quote(FileNames.TEMP_PREFIX) + "([0-9a-f]{" + HOST_LENGTH
                + "})_([0-9]{1,19})_([0-9]{1,19})_[0-9a-f-]+");
    }
    /**
     * This JVM, when its host and start time are known; computed on first use (it asks the platform and hashes, which a
     * provider that writes only journals never needs), never changes.
     */
    private static final class Current {
        static final Optional<WriterProcess> VALUE = identifyCurrent();
    }

    /** This JVM; empty when the platform does not tell its start time or host. */
    static Optional<WriterProcess> current() {
        return Current.VALUE;
    }

    /** A new temporary file name: owned by this JVM when it can be identified, else just unique. */
    static String newTempName() {
        String unique = unique();
        return current().map(owner -> owner.tempName(unique)).orElse(FileNames.TEMP_PREFIX + unique);
    }

    /**
     * A new unique name part: file names here need to be unique, not unpredictable, so 128 random bits without
     * {@code SecureRandom}'s cost of seeding.
     */
    static String unique() {
        var random = ThreadLocalRandom.current();
        return new UUID(random.nextLong(), random.nextLong()).toString();
    }

    /** The temporary file name owned by this process, ending in {@code unique}. */
    String tempName(String unique) {
        return FileNames.TEMP_PREFIX + host + SEPARATOR + pid + SEPARATOR + startMillis + SEPARATOR + unique;
    }

    /** The owner recorded in a temporary file name; empty for other names and for older, unowned ones. */
    static Optional<WriterProcess> ofTempName(String fileName) {
        var matcher = Names.OWNED.matcher(fileName);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new WriterProcess(
                    matcher.group(1), Long.parseLong(matcher.group(2)), Long.parseLong(matcher.group(3))));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * Whether this process is known to have ended: it ran on this host, and no live process has its PID, or the one
     * that has it started at another time. {@code false} when that cannot be told.
     */
    boolean isKnownDead() {
        if (current().isEmpty() || !current().get().host.equals(host)) {
            return false;
        }
        Optional<ProcessHandle> process = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (process.isEmpty()) {
            // a missing PID proves nothing where other users' processes are hidden (Linux hidepid)
            return processesVisible();
        }
        return process.get()
                .info()
                .startInstant()
                .map(start -> start.toEpochMilli() != startMillis)
                .orElse(false);
    }

    /** Whether this JVM can see other processes: the init process of its PID namespace is visible. */
    private static boolean processesVisible() {
        return ProcessHandle.current().pid() == 1 || ProcessHandle.of(1).isPresent();
    }

    private static Optional<WriterProcess> identifyCurrent() {
        ProcessHandle self = ProcessHandle.current();
        Optional<Instant> start = self.info().startInstant();
        Optional<String> hostName = hostName();
        if (start.isEmpty() || hostName.isEmpty()) {
            return Optional.empty();
        }
        String host = sha256(hostName.get() + "\n" + pidNamespace()).substring(0, HOST_LENGTH);
        return Optional.of(new WriterProcess(host, self.pid(), start.get().toEpochMilli()));
    }

    private static Optional<String> hostName() {
        try {
            Path kernel = Path.of("/proc/sys/kernel/hostname");
            if (Files.isReadable(kernel)) {
                String name = Files.readString(kernel, StandardCharsets.UTF_8).trim();
                if (!name.isEmpty()) {
                    return Optional.of(name);
                }
            }
            return Optional.of(InetAddress.getLocalHost().getHostName());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The PID namespace on Linux (processes in other containers have PIDs of their own); else empty. */
    private static String pidNamespace() {
        try {
            return Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
