package dev.agentpersistence.adk;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.adk.agents.LlmAgent;
import com.google.adk.events.Event;
import com.google.adk.runner.Runner;
import com.google.adk.sessions.Session;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.jdbc.JdbcStorage;
import dev.agentpersistence.jdbc.JdbcStorageConfig;
import dev.agentpersistence.tck.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real ADK {@link Runner} with an {@link LlmAgent} over a scripted model, on our services over a SQLite file: a child
 * JVM runs the first turn and is killed (SIGKILL) without closing anything; a new runner in this JVM continues the
 * session, and the model sees the first turn in its request.
 */
class RunnerRestartTest {
    private static final String APP = "restart-app";
    private static final String USER = "user/1";
    private static final String SESSION = "session-1";

    @TempDir
    Path dir;

    private static PersistenceStorageProvider<CheckpointFilter> open(Path db) {
        return JdbcStorage.builder(
                        JdbcStorageConfig.custom().url("jdbc:sqlite:" + db).build())
                .build();
    }

    private static Runner runner(PersistenceStorageProvider<CheckpointFilter> storage, ScriptedLlm model) {
        LlmAgent agent = LlmAgent.builder()
                .name("assistant")
                .description("answers from a script")
                .model(model)
                .instruction("Answer briefly.")
                .outputKey("last_reply")
                .build();
        return new Runner(
                agent,
                APP,
                AgentPersistenceArtifactService.of(storage),
                AgentPersistenceSessionService.of(storage),
                AgentPersistenceMemoryService.of(storage));
    }

    private static List<Event> turn(Runner runner, String text) {
        return runner.runAsync(
                        USER,
                        SESSION,
                        Content.builder()
                                .role("user")
                                .parts(Part.fromText(text))
                                .build())
                .toList()
                .blockingGet();
    }

    /** Child JVM: {@code <database> <marker>}: creates the session, runs one turn, writes the marker, then hangs. */
    public static void main(String[] args) throws Exception {
        var storage = open(Path.of(args[0]));
        var runner = runner(storage, new ScriptedLlm());
        runner.sessionService().createSession(APP, USER, null, SESSION).blockingGet();
        var events = turn(runner, "what is tea?");
        System.out.println("TURN1 " + events.get(events.size() - 1).stringifyContent());
        Files.writeString(Path.of(args[1]), "done");
        Thread.sleep(Long.MAX_VALUE);
    }

    @Test
    void aSessionContinuesInANewJvmAfterAKill() throws Exception {
        Path db = dir.resolve("adk.db");
        Path marker = dir.resolve("turn-1-done");
        try (var child = ChildJvm.start(RunnerRestartTest.class, db.toString(), marker.toString())) {
            child.awaitFile(marker, Duration.ofSeconds(90));
            // the marker is written after the line; the line may still be on its way through the pipe
            assertThat(child.awaitLine("TURN1 ", Duration.ofSeconds(30)))
                    .isEqualTo("TURN1 " + ScriptedLlm.reply(1, "what is tea?"));
            assertThat(child.kill()).as("killed by SIGKILL").isEqualTo(137);
        }

        try (var storage = open(db)) {
            var model = new ScriptedLlm();
            var runner = runner(storage, model);
            var events = turn(runner, "and green tea?");

            assertThat(events.get(events.size() - 1).stringifyContent())
                    .isEqualTo(ScriptedLlm.reply(2, "and green tea?"));
            assertThat(model.requests()).hasSize(1);
            assertThat(model.requests().get(0))
                    .containsExactly(
                            "user: what is tea?",
                            "model: " + ScriptedLlm.reply(1, "what is tea?"),
                            "user: and green tea?");
            Session session = runner.sessionService()
                    .getSession(APP, USER, SESSION, Optional.empty())
                    .blockingGet();
            assertThat(session.events())
                    .extracting(Event::author)
                    .containsExactly("user", "assistant", "user", "assistant");
            assertThat(session.state()).containsEntry("last_reply", ScriptedLlm.reply(2, "and green tea?"));
        }
    }

    @Test
    void aSessionContinuesAfterTheServicesAreClosedAndReopened() throws Exception {
        Path db = dir.resolve("adk.db");
        try (var storage = open(db)) {
            var runner = runner(storage, new ScriptedLlm());
            runner.sessionService().createSession(APP, USER, null, SESSION).blockingGet();
            turn(runner, "first");
            runner.close().blockingAwait();
        }
        try (var storage = open(db)) {
            var model = new ScriptedLlm();
            turn(runner(storage, model), "second");
            assertThat(model.requests().get(0)).contains("user: first", "model: " + ScriptedLlm.reply(1, "first"));
            assertThat(AgentPersistenceSessionService.of(storage)
                            .listEvents(APP, USER, SESSION)
                            .blockingGet()
                            .events())
                    .hasSize(4);
        }
    }
}
