package dev.agentpersistence.pipeline;

import dev.agentpersistence.Message;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A writer agent of the write-up: asks the model for its section (prefixing the retry feedback when there is some),
 * writes it into the document, hands over to the next agent and logs it. Optionally appends each execution to a journal
 * file outside the workspace (to count runs across JVMs) and creates a marker file when it hangs.
 */
final class WriterAgent implements NodeAction<FileWorkspace> {
    private final String agent;
    private final String next;
    private final ScriptedModel model;
    private final Path journal;
    private final Path hangMarker;

    WriterAgent(String agent, String next, ScriptedModel model, Path journal, Path hangMarker) {
        this.agent = agent;
        this.next = next;
        this.model = model;
        this.journal = journal;
        this.hangMarker = hangMarker;
    }

    @Override
    public FileWorkspace run(NodeContext<FileWorkspace> context) throws Exception {
        if (journal != null) {
            Files.writeString(
                    journal,
                    agent + " attempt " + context.attempt() + "\n",
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        }
        FileWorkspace ws = context.state();
        String prompt = context.retryFeedback().map(f -> f.toPrompt() + "\n").orElse("") + "You are " + agent
                + ". Write your section of " + Docs.FILE + ".";
        context.addMessage(Message.user(prompt));
        ScriptedModel.Reply reply = model.complete(agent, prompt);
        context.addMessage(Message.assistant(reply.text()));
        if (reply.alreadyDone()) {
            return ws;
        }
        String doc = Docs.withSection(Docs.read(ws), reply.section());
        ws.write(Docs.FILE, doc);
        if (reply.hang()) {
            Files.writeString(hangMarker, agent);
            Thread.sleep(Long.MAX_VALUE);
        }
        if (reply.failure() != null) {
            throw reply.failure();
        }
        if (reply.writeFile()) {
            ws.write("visualization.mmd", "flowchart TD\n  A[Precondition] --> B{Pass?}\n");
        }
        ws.write(Docs.FILE, Docs.withLogEntry(Docs.withCurrentAgent(doc, next), agent + ": done"));
        return ws;
    }

    @Override
    public String toString() {
        return "WriterAgent[" + agent + "]";
    }
}
