package dev.agentpersistence.tck;

import java.util.List;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * Prefixes the failure of a kit test with the provider test class that ran it ({@code [PostgresStorageProviderTest]
 * …}). The kit's groups are inherited {@code @Nested} classes, so build reports file every provider's results under the
 * kit's class names; the prefix tells which provider failed when a module runs the kit for several backends. Aborted
 * tests pass through unchanged (their reasons already name the provider).
 */
final class ProviderTestNaming implements TestExecutionExceptionHandler {

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        if (failure instanceof TestAbortedException) {
            throw failure;
        }
        List<Object> instances = context.getRequiredTestInstances().getAllInstances();
        String prefix = "[" + instances.get(0).getClass().getSimpleName() + "] ";
        String message = failure instanceof AssertionError ? String.valueOf(failure.getMessage()) : failure.toString();
        AssertionFailedError named;
        if (failure instanceof AssertionFailedError original
                && original.isExpectedDefined()
                && original.isActualDefined()) {
            named = new AssertionFailedError(prefix + message, original.getExpected(), original.getActual(), failure);
        } else {
            named = new AssertionFailedError(prefix + message, failure);
        }
        named.setStackTrace(failure.getStackTrace());
        throw named;
    }
}
