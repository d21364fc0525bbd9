package dev.agentpersistence.s3.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Requests overlap on the backend's threads, run in the caller once it is closed, and report what they threw. */
class OverlappedRequestsTest {

    @Test
    void requestsRunAtTheSameTimeAsTheCaller() throws Exception {
        try (var requests = OverlappedRequests.pooled("test")) {
            var started = new CountDownLatch(1);
            var release = new CountDownLatch(1);
            var pending = requests.start(() -> {
                started.countDown();
                await(release);
                return Thread.currentThread().getName();
            });
            assertThat(started.await(10, TimeUnit.SECONDS))
                    .as("the request runs while the caller goes on")
                    .isTrue();
            release.countDown();
            assertThat(pending.join()).startsWith("test-request-");
        }
    }

    @Test
    void afterClosingTheCallerRunsTheRequestInsteadOfDroppingIt() {
        var requests = OverlappedRequests.pooled("test");
        requests.close();
        assertThat(requests.start(() -> Thread.currentThread().getName()).join())
                .isEqualTo(Thread.currentThread().getName());
    }

    @Test
    void whatARequestThrewIsThrownAsItWas() {
        try (var requests = OverlappedRequests.pooled("test")) {
            var failure = new IllegalStateException("refused");
            assertThatThrownBy(() -> requests.start(() -> {
                                throw failure;
                            })
                            .join())
                    .isSameAs(failure);

            var earlier = new RuntimeException("earlier");
            requests.start(() -> {
                        throw failure;
                    })
                    .awaitQuietly(earlier);
            assertThat(earlier.getSuppressed()).containsExactly(failure);
        }
    }

    @Test
    void inlineRequestsRunInTheCallerAtStart() {
        var requests = OverlappedRequests.inline();
        assertThat(requests.start(() -> Thread.currentThread().getName()).join())
                .isEqualTo(Thread.currentThread().getName());
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
