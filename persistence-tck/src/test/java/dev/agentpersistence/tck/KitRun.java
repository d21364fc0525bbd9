package dev.agentpersistence.tck;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectNestedClass;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The outcome of running a kit subclass through the JUnit Platform launcher, per test as {@code Group.method} (for
 * example {@code Limit.newestAscending}).
 *
 * @param passed tests that passed
 * @param failed failed tests with their failure
 * @param aborted aborted (skipped by assumption) tests with the reason
 * @param containerFailures classes or groups that failed outside a test
 */
record KitRun(
        List<String> passed,
        Map<String, Throwable> failed,
        Map<String, String> aborted,
        Map<String, Throwable> containerFailures) {

    /** Runs every test of {@code kit}. */
    static KitRun of(Class<?> kit) {
        return execute(List.of(selectClass(kit)));
    }

    /** Runs only the top-level test method {@code method} of {@code kit}, as a runner blind to nested classes would. */
    static KitRun ofTopLevelMethod(Class<?> kit, String method) {
        return execute(List.of(org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod(kit, method)));
    }

    /** Runs only the given groups of {@code kit}. */
    static KitRun of(Class<? extends StorageProviderCompatibilityKit> kit, List<Class<?>> groups) {
        var selectors = new ArrayList<DiscoverySelector>();
        for (var group : groups) {
            selectors.add(selectNestedClass(List.of(kit), group));
        }
        return execute(selectors);
    }

    private static KitRun execute(List<? extends DiscoverySelector> selectors) {
        var request =
                LauncherDiscoveryRequestBuilder.request().selectors(selectors).build();
        var passed = new ArrayList<String>();
        var failed = new TreeMap<String, Throwable>();
        var aborted = new TreeMap<String, String>();
        var containerFailures = new TreeMap<String, Throwable>();
        LauncherFactory.create().execute(request, new TestExecutionListener() {
            @Override
            public synchronized void executionFinished(TestIdentifier test, TestExecutionResult result) {
                if (!test.isTest()) {
                    if (result.getStatus() == TestExecutionResult.Status.ABORTED
                            && test.getSource()
                                    .filter(MethodSource.class::isInstance)
                                    .isPresent()) {
                        // a test factory aborted before it made its tests: counted like an aborted test
                        aborted.put(
                                name(test),
                                result.getThrowable().map(Throwable::getMessage).orElse(""));
                    } else if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
                        containerFailures.put(
                                test.getUniqueId(), result.getThrowable().orElse(null));
                    }
                    return;
                }
                String name = name(test);
                switch (result.getStatus()) {
                    case SUCCESSFUL -> passed.add(name);
                    case FAILED -> failed.put(name, result.getThrowable().orElse(null));
                    case ABORTED ->
                        aborted.put(
                                name,
                                result.getThrowable().map(Throwable::getMessage).orElse(""));
                }
            }
        });
        return new KitRun(passed, failed, aborted, containerFailures);
    }

    private static String name(TestIdentifier test) {
        var source = test.getSource().orElse(null);
        if (!(source instanceof MethodSource method)) {
            return "dynamic." + test.getDisplayName(); // a test made by a test factory
        }
        String className = method.getClassName();
        return className.substring(className.lastIndexOf('$') + 1) + "." + method.getMethodName();
    }

    int total() {
        return passed.size() + failed.size() + aborted.size();
    }

    /** A readable summary for assertion messages. */
    String summary() {
        var text = new StringBuilder("passed=" + passed.size() + " failed=" + failed.keySet() + " aborted=" + aborted);
        failed.forEach((name, failure) -> text.append("\n  ")
                .append(name)
                .append(": ")
                .append(
                        failure == null
                                ? "?"
                                : failure.toString().lines().findFirst().orElse("")));
        containerFailures.forEach((id, failure) ->
                text.append("\n  container ").append(id).append(": ").append(failure));
        return text.toString();
    }
}
