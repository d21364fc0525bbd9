package dev.agentpersistence.benchmarks.backend;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Flushes the operating system's dirty pages before a measurement, so that one benchmark's writes (up to hundreds of MB
 * with 250 KiB documents) are not written back during the next one.
 */
public final class Disks {
    private Disks() {}

    /** Runs {@code sync} and waits for it (at most a minute); does nothing where there is no {@code sync}. */
    public static void flush() {
        try {
            Process sync = new ProcessBuilder("sync").redirectErrorStream(true).start();
            if (!sync.waitFor(1, TimeUnit.MINUTES)) {
                sync.destroyForcibly();
            }
        } catch (IOException e) {
            // no sync command on this system: measure without
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
