package dev.agentpersistence.cli;

import dev.agentpersistence.cli.internal.InspectorServer;
import dev.agentpersistence.cli.internal.Store;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code serve [--port N] <URI>}: the read-only web inspector on 127.0.0.1 until interrupted. */
@Command(
        name = "serve",
        description = "Serve a read-only web inspector of the store on 127.0.0.1 (agents, timelines, "
                + "conversations, diffs) until interrupted (Ctrl-C).")
final class ServeCommand implements Callable<Integer>, Verbosity {
    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Parameters(index = "0", paramLabel = "URI", description = "The store.")
    String uri;

    @Option(
            names = "--port",
            paramLabel = "N",
            defaultValue = "8080",
            description = "The port (default 8080; 0: any free port).")
    int port;

    @Option(
            names = "--set",
            paramLabel = "KEY=VALUE",
            mapFallbackValue = "",
            description = "A setting read by the store (repeatable).")
    Map<String, String> settings = new LinkedHashMap<>();

    @Override
    public Integer call() throws InterruptedException {
        try (Store store = Store.open(uri, StoreOptions.readOnly(StoreOptions.settings(settings)));
                InspectorServer server = InspectorServer.start(store, port)) {
            spec.commandLine()
                    .getOut()
                    .println("inspecting " + store.description() + " at " + server.uri()
                            + " (read-only; Ctrl-C to stop)");
            spec.commandLine().getOut().flush();
            var stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(stopped::countDown, "inspector-shutdown"));
            stopped.await();
        }
        return ExitCode.OK;
    }

    @Override
    public boolean verbose() {
        return common.verbose();
    }
}
