package dev.agentpersistence.examples.demo;

import dev.agentpersistence.Message;
import dev.agentpersistence.pipeline.FileWorkspace;
import dev.agentpersistence.pipeline.NodeAction;
import dev.agentpersistence.pipeline.NodeContext;
import dev.agentpersistence.pipeline.RetryFeedback;
import java.util.Objects;

/**
 * One writer agent of the write-up: prompts the model (the retry feedback first, after a rollback), inserts the section
 * it returns into the document, writes the visualization component when the section has a closed {@code mermaid} block,
 * then hands over: sets {@code CURRENT_AGENT} to the next agent and records completion in the handoff log.
 */
final class WriterAgent implements NodeAction<FileWorkspace> {
    private static final String MERMAID_OPEN = "```mermaid\n";

    private final String agent;
    private final String next;
    private final WriterModel model;
    private final CrashSwitch crash;

    WriterAgent(String agent, String next, WriterModel model, CrashSwitch crash) {
        this.agent = agent;
        this.next = next;
        this.model = Objects.requireNonNull(model, "model");
        this.crash = Objects.requireNonNull(crash, "crash");
    }

    @Override
    public FileWorkspace run(NodeContext<FileWorkspace> context) {
        FileWorkspace workspace = context.state();
        String prompt = context.retryFeedback()
                        .map(RetryFeedback::toPrompt)
                        .map(feedback -> feedback + "\n")
                        .orElse("")
                + "You are " + agent + ". Write your section of " + MarkdownDocument.FILE + ", then hand over to "
                + next + ".";
        context.addMessage(Message.user(prompt));
        WriterModel.Reply reply = model.complete(agent, prompt);
        context.addMessage(Message.assistant(reply.text()));
        if (!reply.wroteSection()) {
            return workspace;
        }
        String doc = MarkdownDocument.withSection(workspace.read(MarkdownDocument.FILE), reply.section());
        workspace.write(MarkdownDocument.FILE, doc);
        crash.check(agent);
        int diagram = reply.section().indexOf(MERMAID_OPEN);
        int end = diagram < 0 ? -1 : reply.section().indexOf("```", diagram + MERMAID_OPEN.length());
        if (end >= 0) {
            workspace.write(
                    MarkdownDocument.VISUALIZATION_FILE,
                    reply.section().substring(diagram + MERMAID_OPEN.length(), end));
        }
        workspace.write(
                MarkdownDocument.FILE,
                MarkdownDocument.withHandoff(MarkdownDocument.withCurrentAgent(doc, next), agent));
        return workspace;
    }

    @Override
    public String toString() {
        return "WriterAgent[" + agent + "]";
    }
}
