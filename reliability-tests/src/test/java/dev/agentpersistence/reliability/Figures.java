package dev.agentpersistence.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * Records what a scenario measured: one Markdown table row per scenario and backend, appended to
 * {@code target/reliability-figures.md} and printed, so RELIABILITY.md can quote a run.
 */
final class Figures {
    static final Path FILE = Path.of("target", "reliability-figures.md");

    private Figures() {}

    static synchronized void record(String scenario, String backend, String figures) {
        String row = "| " + scenario + " | " + backend + " | " + Scale.mode() + " | " + figures + " | " + Instant.now()
                + " |";
        System.out.println("FIGURES " + row);
        try {
            Files.createDirectories(FILE.getParent());
            if (!Files.exists(FILE)) {
                Files.writeString(
                        FILE,
                        "| scenario | backend | mode | figures | at |\n|---|---|---|---|---|\n",
                        StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
            }
            Files.writeString(
                    FILE, row + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
