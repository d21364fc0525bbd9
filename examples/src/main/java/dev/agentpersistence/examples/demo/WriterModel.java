package dev.agentpersistence.examples.demo;

/**
 * The language model behind the writer agents: given an agent's name and its prompt, the markdown section the agent
 * writes. A real integration calls an LLM here; the demo uses {@link ScriptedWriterModel}, which is deterministic.
 */
@FunctionalInterface
public interface WriterModel {

    /**
     * The model's answer to {@code prompt}.
     *
     * @param agent the agent asking, which is also the model session
     * @param prompt the instruction, starting with the retry feedback after a rollback
     */
    Reply complete(String agent, String prompt);

    /**
     * A model answer.
     *
     * @param text what the model says
     * @param section the markdown section to insert into the document, or {@code null} when the model wrote nothing
     *     (for example because it believes the work is already done)
     */
    record Reply(String text, String section) {
        /** An answer with a section. */
        public static Reply section(String section) {
            return new Reply("Section written.", section);
        }

        /** Whether the model wrote a section. */
        public boolean wroteSection() {
            return section != null;
        }
    }
}
