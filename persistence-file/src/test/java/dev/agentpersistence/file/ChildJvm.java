package dev.agentpersistence.file;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Starts {@code main} of a test class in another JVM on this test run's class path, output to a file. */
public final class ChildJvm {
    private ChildJvm() {
    }

    /** The started process; its standard output and error go to {@code output}. */
    public static Process start(Class<?> main, Path output, String... args) throws IOException {
        var command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    }
}
