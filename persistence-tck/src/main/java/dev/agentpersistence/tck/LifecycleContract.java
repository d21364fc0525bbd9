package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** After {@code close()} every call throws {@link IllegalStateException}; closing twice is harmless. */
abstract class LifecycleContract extends Contract {

    LifecycleContract(KitSession session) {
        super(session);
    }

    private PersistenceStorageProvider<CheckpointFilter> closeableProvider() throws Exception {
        var provider = provider();
        var close = provider.getClass().getMethod("close");
        if (close.getDeclaringClass() == PersistenceStorageProvider.class) {
            Assumptions.abort("close() not supported by " + providerName() + ": it keeps the SPI's no-op default,"
                    + " so there is nothing to release and no closed state to check");
        }
        return provider;
    }

    private static void assertClosed(String call, Runnable action) {
        assertThatThrownBy(action::run).as("%s after close()", call).isInstanceOf(IllegalStateException.class);
    }

    /** Optional operations may answer "unsupported" instead, since they never work on such a provider. */
    private static void assertClosedOrUnsupported(String call, Supplier<?> action) {
        Throwable thrown = catchThrowable(action::get);
        if (thrown instanceof UnsupportedOperationException) {
            return;
        }
        assertThat(thrown).as("%s after close()", call).isInstanceOf(IllegalStateException.class);
    }

    @Test
    @DisplayName("every call after close() throws IllegalStateException")
    void useAfterClose() throws Exception {
        var provider = closeableProvider();
        String agent = agent("closed");
        provider.saveCheckpoint(agent, Checkpoints.simple(agent, 0));
        provider.close();
        assertClosed("getCheckpoints", () -> provider.getCheckpoints(agent));
        assertClosed("getCheckpoints(filter)", () -> provider.getCheckpoints(agent, CheckpointFilter.ALL));
        assertClosed("getLatestCheckpoint", () -> provider.getLatestCheckpoint(agent));
        assertClosed("getLatestCheckpoint(filter)", () -> provider.getLatestCheckpoint(agent, CheckpointFilter.ALL));
        assertClosed("saveCheckpoint", () -> provider.saveCheckpoint(agent, Checkpoints.simple(agent, 1)));
        assertClosedOrUnsupported("getCheckpoint", () -> provider.getCheckpoint(agent, "cp-0"));
        assertClosedOrUnsupported("deleteCheckpoints", () -> provider.deleteCheckpoints(agent));
        assertClosedOrUnsupported("deleteCheckpointsBefore", () -> provider.deleteCheckpointsBefore(agent, 1));
        assertClosedOrUnsupported("listAgents", provider::listAgents);
    }

    @Test
    @DisplayName("closing twice is harmless")
    void closeTwice() throws Exception {
        var provider = closeableProvider();
        provider.close();
        provider.close();
        assertClosed("getCheckpoints", () -> provider.getCheckpoints(agent("closed-twice")));
    }
}
