package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.StorageAuthenticationException;
import dev.agentpersistence.StorageConfigurationException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A store whose setup is wrong (refused credentials, unknown database, bad setting) is never retried by the pipeline:
 * unlike {@code StorageUnavailableException}, a {@link StorageConfigurationException} fails the save or load at its
 * first attempt, without waiting the backoff.
 */
class ConfigurationErrorsAreNotRetriedTest {
    private final OutageStorage storage = new OutageStorage(Storages.inMemory());
    private final RecordingSleeper sleeper = new RecordingSleeper();
    private final RecordingListener events = new RecordingListener();

    @AfterEach
    void close() {
        storage.close();
    }

    @Test
    void aRefusedSaveFailsTheRunAtTheFirstAttempt() {
        storage.failWith(ConfigurationErrorsAreNotRetriedTest::refusedCredentials);
        storage.failSaves(100, cp -> "a".equals(cp.nodeId()));

        var result = pipeline().run("refused-1", Draft.empty());

        assertThat(result.failure()).get().satisfies(f -> {
            assertThat(f.reason()).isEqualTo(PipelineFailure.Reason.CHECKPOINT_FAILED);
            assertThat(f.node()).isEqualTo("a");
            assertThat(f.exception()).isInstanceOf(StorageAuthenticationException.class);
        });
        assertThat(storage.failedSaves()).isEqualTo(1);
        assertThat(sleeper.sleeps()).isEmpty();
        assertThat(events.of(PipelineEvent.CheckpointSaveFailed.class))
                .extracting(PipelineEvent.CheckpointSaveFailed::willRetry)
                .containsExactly(false);
    }

    @Test
    void aRefusedLoadIsThrownAtTheFirstAttempt() {
        storage.failWith(() -> new StorageConfigurationException("FATAL: database \"nope\" does not exist"));
        storage.failLoads(100);

        assertThatThrownBy(() -> pipeline().run("refused-2", Draft.empty()))
                .isInstanceOf(StorageConfigurationException.class)
                .hasMessageContaining("does not exist");
        assertThat(sleeper.sleeps()).isEmpty();
    }

    private Pipeline<Draft> pipeline() {
        return Pipeline.builder("refused", Draft.CODEC)
                .storage(storage)
                .sleeper(sleeper)
                .listener(events)
                .checkpointRetry(RetryPolicy.custom()
                        .maxRetries(3)
                        .backoff(Backoff.fixed(Duration.ofMillis(100)))
                        .build())
                .node(Node.of("a", ctx -> ctx.state().append("a", "a")))
                .build();
    }

    private static RuntimeException refusedCredentials() {
        return new StorageAuthenticationException(
                "FATAL: password authentication failed for user \"app\" (PostgreSQL database jdbc:postgresql://db/x)",
                new SQLInvalidAuthorizationSpecException("password authentication failed", "28P01"));
    }
}
