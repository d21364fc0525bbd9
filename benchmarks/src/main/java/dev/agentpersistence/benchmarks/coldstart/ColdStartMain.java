package dev.agentpersistence.benchmarks.coldstart;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Time to the first acknowledged save in fresh JVMs: {@code java -cp benchmarks/target/benchmarks.jar
 * dev.agentpersistence.benchmarks.coldstart.ColdStartMain [runs] [modes]} starts one JVM per run and mode of
 * {@link FirstSaveMain}, the modes alternating within each round (default 11 runs of {@code raw-sqlite, ours-sqlite,
 * raw-file, ours-file}), each on a new empty directory, and prints per mode the median time from starting the process
 * to the save returned and to the process's exit, and each {@code ours-X} over {@code raw-X}. JVM options for the
 * children go in the system property {@code coldstart.jvm} (space separated).
 */
public final class ColdStartMain {
    private ColdStartMain() {}

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 11;
        List<String> modes = args.length > 1
                ? List.of(args[1].split(","))
                : List.of("raw-sqlite", "ours-sqlite", "raw-file", "ours-file");
        List<String> jvm = System.getProperty("coldstart.jvm", "").isBlank()
                ? List.of()
                : List.of(System.getProperty("coldstart.jvm").trim().split("\\s+"));
        String loadBefore = loadAverage();
        Path root = Files.createTempDirectory("coldstart");
        Map<String, List<Long>> toSave = new LinkedHashMap<>();
        Map<String, List<Long>> toExit = new LinkedHashMap<>();
        for (int run = 0; run < runs; run++) {
            for (String mode : modes) {
                long[] times = once(mode, jvm, Files.createDirectory(root.resolve(mode + "-" + run)));
                toSave.computeIfAbsent(mode, m -> new ArrayList<>()).add(times[0]);
                toExit.computeIfAbsent(mode, m -> new ArrayList<>()).add(times[1]);
            }
        }
        System.out.printf(
                Locale.ROOT,
                "%d fresh JVMs per mode, JVM options %s; load %s before, %s after%n",
                runs,
                jvm,
                loadBefore,
                loadAverage());
        System.out.println("| mode | start → save returned (median ms) | start → exit (median ms) |");
        System.out.println("|---|---:|---:|");
        for (String mode : modes) {
            System.out.printf(
                    Locale.ROOT,
                    "| %s | %.0f | %.0f |%n",
                    mode,
                    median(toSave.get(mode)) / 1e6,
                    median(toExit.get(mode)) / 1e6);
        }
        for (String mode : modes) {
            String raw = mode.replace("ours-", "raw-");
            if (mode.startsWith("ours-") && toSave.containsKey(raw)) {
                System.out.printf(
                        Locale.ROOT,
                        "%s / %s: %.2fx to the save, %.2fx to exit%n",
                        mode,
                        raw,
                        median(toSave.get(mode)) / median(toSave.get(raw)),
                        median(toExit.get(mode)) / median(toExit.get(raw)));
            }
        }
    }

    /** Nanoseconds from starting the process to its save returned and to its exit. */
    private static long[] once(String mode, List<String> jvm, Path directory) throws IOException, InterruptedException {
        var command = new ArrayList<String>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvm);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(FirstSaveMain.class.getName());
        command.add(mode);
        command.add(directory.toString());
        Instant started = Instant.now();
        long startedNanos = System.nanoTime();
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        Long savedAt = null;
        try (var out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith("saved-at ")) {
                    savedAt = Long.parseLong(line.substring("saved-at ".length()));
                }
            }
        }
        int exit = process.waitFor();
        long toExit = System.nanoTime() - startedNanos;
        if (exit != 0 || savedAt == null) {
            throw new UncheckedIOException(new IOException(mode + " exited with " + exit + " without a save"));
        }
        long startedEpoch = started.getEpochSecond() * 1_000_000_000L + started.getNano();
        return new long[] {savedAt - startedEpoch, toExit};
    }

    /** The 1, 5 and 15 minute load averages. */
    private static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static double median(List<Long> values) {
        var sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2.0;
    }
}
