package dev.agentpersistence.reliability;

import dev.agentpersistence.tck.ChildJvm;
import java.io.IOException;
import java.util.List;

/** Starts the child JVMs of these tests small and quick to start, with library logging at warnings only. */
final class ChildJvms {
    private static final List<String> OPTIONS = List.of(
            "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");

    private ChildJvms() {}

    static ChildJvm start(Class<?> main, String... args) throws IOException {
        return ChildJvm.start(main, OPTIONS, args);
    }
}
