package dev.agentpersistence.reliability;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.function.BooleanSupplier;

/** Free loopback ports, binaries on the PATH, and waiting for a server to answer. */
final class Ports {
    private Ports() {}

    static int free() {
        try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static boolean onPath(String binary) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (new File(dir, binary).canExecute()) {
                return true;
            }
        }
        return false;
    }

    /** Polls {@code answers} for up to 60 s; fails early when {@code process} (if any) exits. */
    static void awaitAnswer(String what, BooleanSupplier answers, Process process) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!answers.getAsBoolean()) {
            if (process != null && !process.isAlive()) {
                throw new IllegalStateException(what + " exited with " + process.exitValue());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(what + " did not answer within 60 s");
            }
            Thread.sleep(20);
        }
    }
}
