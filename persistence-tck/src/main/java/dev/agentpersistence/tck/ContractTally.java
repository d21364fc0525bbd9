package dev.agentpersistence.tck;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Counts the kit's contract tests that ran (passed, failed or skipped with a reason) and fails the provider test class
 * when none did: a runner that cannot see the kit's {@code @Nested} contract groups (an old Surefire, an IDE runner
 * selecting only top-level methods) would otherwise report success after checking nothing.
 */
final class ContractTally implements BeforeEachCallback, AfterAllCallback {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(ContractTally.class);

    @Override
    public void beforeEach(ExtensionContext context) {
        if (!isGroup(context.getRequiredTestClass())) {
            return;
        }
        kitContext(context).ifPresent(kit -> counter(kit).incrementAndGet());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (isGroup(context.getRequiredTestClass())
                || !StorageProviderCompatibilityKit.class.isAssignableFrom(context.getRequiredTestClass())) {
            return;
        }
        if (counter(context).get() == 0) {
            throw new AssertionError("[" + context.getRequiredTestClass().getSimpleName() + "] ran none of the "
                    + "conformance kit's contract groups: the test runner does not run JUnit 5 @Nested classes. Run "
                    + "the kit on the JUnit Platform with all its nested classes (maven-surefire-plugin 3.x; Maven's "
                    + "default 2.12.4 runs no JUnit 5 test at all), or select the whole test class.");
        }
    }

    private static Optional<ExtensionContext> kitContext(ExtensionContext context) {
        for (Optional<ExtensionContext> at = Optional.of(context);
                at.isPresent();
                at = at.get().getParent()) {
            ExtensionContext candidate = at.get();
            if (candidate.getTestMethod().isEmpty()
                    && candidate.getTestClass().isPresent()
                    && !isGroup(candidate.getTestClass().get())
                    && StorageProviderCompatibilityKit.class.isAssignableFrom(
                            candidate.getTestClass().get())) {
                return at;
            }
        }
        return Optional.empty();
    }

    /** Whether {@code type} is one of the kit's contract groups (an inner, {@code @Nested} class). */
    private static boolean isGroup(Class<?> type) {
        return type.getEnclosingClass() != null && !java.lang.reflect.Modifier.isStatic(type.getModifiers());
    }

    private static AtomicInteger counter(ExtensionContext kit) {
        return kit.getStore(NAMESPACE)
                .getOrComputeIfAbsent("contracts", key -> new AtomicInteger(), AtomicInteger.class);
    }
}
