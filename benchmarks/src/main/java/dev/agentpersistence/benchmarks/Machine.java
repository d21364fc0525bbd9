package dev.agentpersistence.benchmarks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** What the summary says about the machine a run measured on. */
final class Machine {
    private Machine() {}

    /** CPU, cores, memory, OS, JVM and the latency of one fsync'd 4 KiB write in {@code dataDir}. */
    static Map<String, String> describe(Path dataDir) {
        var machine = new LinkedHashMap<String, String>();
        machine.put("CPU", firstValue(Path.of("/proc/cpuinfo"), "model name").orElse(System.getProperty("os.arch")));
        machine.put("logical cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
        machine.put("memory", firstValue(Path.of("/proc/meminfo"), "MemTotal").orElse("unknown"));
        machine.put("OS", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        machine.put("JVM", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        machine.put("fsync of a 4 KiB write", fsyncMillis(dataDir));
        return machine;
    }

    /** The 1-, 5- and 15-minute load averages, or "unknown". */
    static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return parts[0] + ", " + parts[1] + ", " + parts[2];
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static java.util.Optional<String> firstValue(Path file, String key) {
        try {
            return Files.readAllLines(file).stream()
                    .filter(line -> line.startsWith(key))
                    .map(line -> line.substring(line.indexOf(':') + 1).trim())
                    .findFirst();
        } catch (IOException e) {
            return java.util.Optional.empty();
        }
    }

    private static String fsyncMillis(Path dataDir) {
        try {
            Files.createDirectories(dataDir);
            Path file = Files.createTempFile(dataDir, "fsync", ".probe");
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                int rounds = 20;
                long started = System.nanoTime();
                for (int i = 0; i < rounds; i++) {
                    channel.write(ByteBuffer.allocate(4096), (long) i * 4096);
                    channel.force(true);
                }
                return String.format(
                        Locale.ROOT, "%.2f ms (mean of %d)", (System.nanoTime() - started) / 1e6 / rounds, rounds);
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }
}
