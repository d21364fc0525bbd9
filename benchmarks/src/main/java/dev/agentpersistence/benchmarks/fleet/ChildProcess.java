package dev.agentpersistence.benchmarks.fleet;

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

/** A JVM on this JVM's class path running one of the fleet benchmark's child mains, its output read line by line. */
final class ChildProcess implements AutoCloseable {
    private final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();

    private ChildProcess(Process process) {
        this.process = process;
        var reader = new Thread(
                () -> {
                    try (var in = new BufferedReader(
                            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                        String line;
                        while ((line = in.readLine()) != null) {
                            lines.add(line);
                        }
                    } catch (IOException e) {
                        // the process was killed: what was read stays
                    }
                },
                "fleet-child-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /** A child running {@link RecoveryChildMain}. */
    static ChildProcess start(List<String> jvmArguments, String... args) throws IOException {
        return start(RecoveryChildMain.class, jvmArguments, args);
    }

    /** A child running {@code main}'s {@code main} method with {@code args}. */
    static ChildProcess start(Class<?> main, List<String> jvmArguments, String... args) throws IOException {
        var command = new ArrayList<String>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-Xmx256m", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"));
        command.addAll(jvmArguments);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return new ChildProcess(new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start());
    }

    /** Waits for a line starting with {@code prefix}. */
    void await(String prefix, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (lines.stream().noneMatch(line -> line.startsWith(prefix))) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("the child printed no '" + prefix + "' (alive: " + process.isAlive()
                        + "); its output: " + lines);
            }
            Thread.sleep(2);
        }
    }

    /** The lines printed so far that start with {@code prefix}. */
    List<String> lines(String prefix) {
        return lines.stream().filter(line -> line.startsWith(prefix)).toList();
    }

    /** Whether the process still runs. */
    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL, waiting until the process is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(60, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
