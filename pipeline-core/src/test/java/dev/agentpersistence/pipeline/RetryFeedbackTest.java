package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The feedback block handed to a retried action. */
class RetryFeedbackTest {

    @Test
    void violationsAreListedUnderTheRollbackNotice() {
        var feedback = new RetryFeedback(
                "concepts-writer",
                2,
                3,
                List.of(
                        new Violation("section # Core Concepts", "section `# Core Concepts` missing"),
                        new Violation("concept blocks", "3-5 concept blocks expected, found 7")),
                null,
                null);

        assertThat(feedback.toPrompt()).isEqualTo("""
                [RETRY ATTEMPT 2/3]
                ⚠️ ROLLBACK PERFORMED
                Your previous output failed postcondition validation and has been rolled back.
                Everything it changed has been restored to its state BEFORE your last execution.
                Validation errors from previous attempt:
                - section `# Core Concepts` missing
                - 3-5 concept blocks expected, found 7
                """);
    }

    @Test
    void anExceptionIsReportedAsTheError() {
        var feedback = new RetryFeedback("n", 1, 3, List.of(), new IllegalStateException("rate limited"), null);

        assertThat(feedback.toPrompt()).isEqualTo("""
                [RETRY ATTEMPT 1/3]
                ⚠️ ROLLBACK PERFORMED
                Your previous execution failed with an error and has been rolled back.
                Everything it changed has been restored to its state BEFORE your last execution.
                Error from previous attempt:
                - IllegalStateException: rate limited
                """);
    }

    @Test
    void feedbackNeedsAReasonAndASensibleRetryNumber() {
        assertThatThrownBy(() -> new RetryFeedback("n", 1, 3, List.of(), null, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RetryFeedback("n", 4, 3, List.of(new Violation("c", "m")), null, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RetryFeedback("n", 0, 3, List.of(new Violation("c", "m")), null, null))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
