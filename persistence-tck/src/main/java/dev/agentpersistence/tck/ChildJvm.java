package dev.agentpersistence.tck;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A second JVM running the {@code main} method of a class on this JVM's class path, for tests of what survives a
 * process that dies: start it, wait until it reaches the interesting point (a line it prints or a file it writes), then
 * {@link #kill()} it, which is {@code Process.destroyForcibly()} and so SIGKILL on Linux: no shutdown hooks, no
 * {@code finally} blocks.
 *
 * <p>The child's standard output is collected line by line ({@link #lines()}), its standard error separately
 * ({@link #errors()}); both appear in the messages of the assertions that fail here. Closing a child that is still
 * alive kills it, so a {@code try}-with-resources block never leaves one running.
 */
public final class ChildJvm implements AutoCloseable {
    private static final Duration DEATH = Duration.ofSeconds(60);
    private static final long DRAIN_MILLIS = 10_000;

    private final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final List<String> errors = new CopyOnWriteArrayList<>();
    private final Thread outReader;
    private final Thread errReader;

    private ChildJvm(Process process) {
        this.process = process;
        this.outReader = drainer(process.getInputStream(), lines, "child-stdout-" + process.pid());
        this.errReader = drainer(process.getErrorStream(), errors, "child-stderr-" + process.pid());
    }

    /**
     * Starts {@code main.main(args)} in a new JVM with this JVM's {@code java} and class path.
     *
     * @param main a class with a {@code public static void main(String[])}
     * @param args the arguments of {@code main}
     * @return the running child
     * @throws IOException when the process cannot be started
     */
    public static ChildJvm start(Class<?> main, String... args) throws IOException {
        return start(main, List.of(), args);
    }

    /**
     * Starts {@code main.main(args)} in a new JVM as {@link #start(Class, String...)} does, with JVM options such as
     * {@code -Xmx128m} before the class name.
     *
     * @param main a class with a {@code public static void main(String[])}
     * @param jvmOptions options of the {@code java} command
     * @param args the arguments of {@code main}
     * @return the running child
     * @throws IOException when the process cannot be started
     */
    public static ChildJvm start(Class<?> main, List<String> jvmOptions, String... args) throws IOException {
        Objects.requireNonNull(main, "main");
        Objects.requireNonNull(jvmOptions, "jvmOptions");
        var command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path")));
        command.addAll(jvmOptions);
        command.add(main.getName());
        command.addAll(List.of(args));
        return new ChildJvm(new ProcessBuilder(command).start());
    }

    /**
     * Waits for the first output line starting with {@code prefix}.
     *
     * @return that line
     * @throws AssertionError when the child exits first or the time runs out
     */
    public String awaitLine(String prefix, Duration timeout) throws InterruptedException {
        Objects.requireNonNull(prefix, "prefix");
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            boolean ended = !process.isAlive() && !outReader.isAlive();
            for (String line : lines) {
                if (line.startsWith(prefix)) {
                    return line;
                }
            }
            if (ended) {
                throw new AssertionError(
                        "child exited with " + process.exitValue() + " before printing '" + prefix + "'\n" + output());
            }
            Thread.sleep(5);
        }
        throw new AssertionError("no '" + prefix + "' from the child within " + timeout + "\n" + output());
    }

    /**
     * Waits until {@code count} output lines start with {@code prefix}.
     *
     * @return {@code true} when they did; {@code false} when the child exited first or the time ran out
     */
    public boolean awaitLines(String prefix, int count, Duration timeout) throws InterruptedException {
        Objects.requireNonNull(prefix, "prefix");
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            boolean ended = !process.isAlive() && !outReader.isAlive();
            if (lines.stream().filter(line -> line.startsWith(prefix)).count() >= count) {
                return true;
            }
            if (ended) {
                return false;
            }
            Thread.sleep(1);
        }
        return false;
    }

    /**
     * Waits until the file {@code marker} exists, for a child that announces a point it reached by writing a file.
     *
     * @throws AssertionError when the child exits first or the time runs out
     */
    public void awaitFile(Path marker, Duration timeout) throws InterruptedException {
        Objects.requireNonNull(marker, "marker");
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!Files.exists(marker)) {
            if (!process.isAlive()) {
                throw new AssertionError(
                        "child exited with " + process.exitValue() + " before writing " + marker + "\n" + output());
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the child did not write " + marker + " within " + timeout + "\n" + output());
            }
            Thread.sleep(20);
        }
    }

    /**
     * SIGKILL, then waits until the process is gone and its output is read to the end.
     *
     * @return the exit code, 137 for a JVM killed so on Linux
     * @throws AssertionError when the process does not die within a minute
     */
    public int kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(DEATH.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("child " + process.pid() + " did not die within " + DEATH);
        }
        drained();
        return process.exitValue();
    }

    /**
     * Waits for the child to end on its own and its output to be read to the end.
     *
     * @return the exit code
     * @throws AssertionError (after killing it) when the child does not end within {@code timeout}
     */
    public int waitFor(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("child did not finish within " + timeout + "\n" + output());
        }
        drained();
        return process.exitValue();
    }

    /** Whether the process still runs. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** The lines of standard output read so far. */
    public List<String> lines() {
        return List.copyOf(lines);
    }

    /** The lines of standard error read so far. */
    public List<String> errors() {
        return List.copyOf(errors);
    }

    /** Standard output and then standard error read so far, for messages of failed assertions. */
    public String output() {
        return "stdout:\n" + String.join("\n", lines) + "\nstderr:\n" + String.join("\n", errors);
    }

    /** Kills the child if it still runs. */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }

    private void drained() throws InterruptedException {
        outReader.join(DRAIN_MILLIS);
        errReader.join(DRAIN_MILLIS);
    }

    private static Thread drainer(InputStream stream, List<String> into, String name) {
        var thread = new Thread(
                () -> {
                    try (var in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                        String line;
                        while ((line = in.readLine()) != null) {
                            into.add(line);
                        }
                    } catch (IOException e) {
                        // The stream closes when the process is destroyed; what was read before stays.
                    }
                },
                name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
