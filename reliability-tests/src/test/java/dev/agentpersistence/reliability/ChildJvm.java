package dev.agentpersistence.reliability;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM running a main class of these tests on the test class path, its standard output
 * collected line by line. {@link #kill()} is {@code Process.destroyForcibly()}: SIGKILL on Linux.
 */
final class ChildJvm {
    private final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;

    private ChildJvm(Process process) {
        this.process = process;
        this.reader = new Thread(this::drain, "child-stdout-" + process.pid());
        this.reader.setDaemon(true);
        this.reader.start();
    }

    static ChildJvm start(Class<?> main, Path stderr, String... args) throws IOException {
        var command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-Xmx256m", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", main.getName()));
        command.addAll(List.of(args));
        return new ChildJvm(new ProcessBuilder(command).redirectError(stderr.toFile()).start());
    }

    /** Waits for the first line starting with {@code prefix}; fails when the child exits or prints ERROR first. */
    String await(String prefix, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (String line : lines) {
                if (line.startsWith(prefix)) {
                    return line;
                }
                if (line.startsWith("ERROR")) {
                    throw new AssertionError("child failed: " + String.join("\n", lines));
                }
            }
            if (!process.isAlive() && !reader.isAlive()) {
                throw new AssertionError("child exited with " + process.exitValue() + " before '" + prefix + "':\n"
                        + String.join("\n", lines));
            }
            Thread.sleep(5);
        }
        throw new AssertionError("no '" + prefix + "' from the child within " + timeout + ":\n" + String.join("\n", lines));
    }

    /** SIGKILL, then waits until the process is gone and its output is read to the end. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new AssertionError("child " + process.pid() + " did not die");
        }
        reader.join(10_000);
    }

    /** Waits for a normal exit and the end of its output; returns the exit code. */
    int waitFor(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("child did not finish within " + timeout + ":\n" + String.join("\n", lines));
        }
        reader.join(10_000);
        return process.exitValue();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    List<String> lines() {
        return List.copyOf(lines);
    }

    private void drain() {
        try (var in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                lines.add(line);
            }
        } catch (IOException e) {
            // The stream is closed when the process is destroyed; what was read before stays.
        }
    }
}
