package dev.agentpersistence;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps every Java source of the reactor within 120 columns. The formatter (Spotless with palantir-java-format, checked
 * in {@code mvn verify}) wraps code at 120 but leaves long string literals and comments alone; this test covers those,
 * for every module the root POM lists.
 */
class SourceLineLengthTest {
    private static final int MAX_COLUMNS = 120;

    @Test
    void noSourceLineIsLongerThan120Columns() throws IOException {
        var tooLong = new ArrayList<String>();
        for (Path module : ReactorModules.directories()) {
            for (Path source : javaSources(module)) {
                List<String> lines = Files.readAllLines(source);
                for (int i = 0; i < lines.size(); i++) {
                    int columns = lines.get(i).codePointCount(0, lines.get(i).length());
                    if (columns > MAX_COLUMNS) {
                        tooLong.add(ReactorModules.ROOT.relativize(source) + ":" + (i + 1) + " (" + columns + ")");
                    }
                }
            }
        }
        assertThat(ReactorModules.directories()).isNotEmpty();
        assertThat(tooLong).as("lines over %d columns", MAX_COLUMNS).isEmpty();
    }

    private static List<Path> javaSources(Path module) throws IOException {
        Path src = module.resolve("src");
        if (!Files.isDirectory(src)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(src)) {
            return files.filter(file -> file.toString().endsWith(".java"))
                    .sorted()
                    .toList();
        }
    }
}
