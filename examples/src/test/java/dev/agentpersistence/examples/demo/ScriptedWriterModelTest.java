package dev.agentpersistence.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class ScriptedWriterModelTest {

    @Test
    void aFlawedAgentBreaksItsRuleOnceAndFixesItOnlyWhenToldAboutTheRollback() {
        var model = new ScriptedWriterModel(Set.of(DocumentPipeline.CONCEPTS_WRITER));

        var first = model.complete(DocumentPipeline.CONCEPTS_WRITER, "write");
        var withoutFeedback = model.complete(DocumentPipeline.CONCEPTS_WRITER, "write");
        var withFeedback =
                model.complete(DocumentPipeline.CONCEPTS_WRITER, "[RETRY ATTEMPT 1/3]\nROLLBACK PERFORMED\nwrite");

        assertThat(MarkdownDocument.conceptBlocks(first.section())).hasSize(7);
        assertThat(withoutFeedback.wroteSection())
                .as("remembers its work: 'already done'")
                .isFalse();
        assertThat(withoutFeedback.text()).contains("already completed");
        assertThat(MarkdownDocument.conceptBlocks(withFeedback.section())).hasSize(4);
        assertThat(MarkdownDocument.conceptsMissingLevels(withFeedback.section()))
                .isEmpty();
        assertThat(model.prompts(DocumentPipeline.CONCEPTS_WRITER)).hasSize(3);
    }

    @Test
    void agentsThatAreNotFlawedAnswerCorrectlyEveryTime() {
        var model = new ScriptedWriterModel(Set.of());
        for (int i = 0; i < 2; i++) {
            assertThat(model.complete(DocumentPipeline.OVERVIEW_WRITER, "write").section())
                    .startsWith("# Overview");
            assertThat(model.complete(DocumentPipeline.VISUALIZATION_WRITER, "write")
                            .section())
                    .startsWith("# Visualization")
                    .contains("```mermaid")
                    .endsWith("```\n");
        }
    }
}
