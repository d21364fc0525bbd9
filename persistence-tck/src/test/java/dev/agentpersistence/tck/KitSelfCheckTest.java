package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.tck.providers.ReferenceProvider;
import dev.agentpersistence.tck.providers.ReferenceStore;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The kit cannot pass by running nothing: run by a runner that sees only top-level methods, it fails the provider test
 * class; a hook left out shows as a skipped test with its reason in the read matrix, never as no test.
 */
class KitSelfCheckTest {

    /** A provider test with one test of its own besides the kit's groups. */
    static final class OwnTestKit extends StorageProviderCompatibilityKit {
        private final ReferenceStore store = new ReferenceStore();

        @Override
        protected PersistenceStorageProvider<CheckpointFilter> createProvider() {
            return new ReferenceProvider(store);
        }

        @Test
        void ownTest() {
            assertThat(provider().listAgents()).isEmpty();
        }
    }

    @Test
    void aRunnerThatSkipsTheNestedContractsFailsTheProviderTestClass() {
        KitRun run = KitRun.ofTopLevelMethod(OwnTestKit.class, "ownTest");
        assertThat(run.passed()).containsExactly("OwnTestKit.ownTest");
        assertThat(run.containerFailures().values())
                .as(run.summary())
                .singleElement()
                .satisfies(failure -> assertThat(failure)
                        .hasMessageContaining("[OwnTestKit] ran none of the conformance kit's contract groups")
                        .hasMessageContaining("@Nested"));
    }

    @Test
    void aRunOfSomeGroupsDoesNotFailTheClass() {
        KitRun run = KitRun.of(OwnTestKit.class, List.of(StorageProviderCompatibilityKit.Limit.class));
        assertThat(run.total()).as(run.summary()).isPositive();
        assertThat(run.containerFailures()).as(run.summary()).isEmpty();
    }

    @Test
    void theReadMatrixWithoutItsHookIsASkipWithTheReasonNotZeroTests() {
        var skipped = new java.util.ArrayList<String>();
        var request = org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request()
                .selectors(org.junit.platform.engine.discovery.DiscoverySelectors.selectNestedClass(
                        List.of(OwnTestKit.class), StorageProviderCompatibilityKit.ReadMatrix.class))
                .build();
        org.junit.platform.launcher.core.LauncherFactory.create()
                .execute(request, new org.junit.platform.launcher.TestExecutionListener() {
                    @Override
                    public void executionFinished(
                            org.junit.platform.launcher.TestIdentifier test,
                            org.junit.platform.engine.TestExecutionResult result) {
                        if (test.isTest()
                                && result.getStatus() == org.junit.platform.engine.TestExecutionResult.Status.ABORTED) {
                            skipped.add(test.getDisplayName() + ": "
                                    + result.getThrowable()
                                            .map(Throwable::getMessage)
                                            .orElse(""));
                        }
                    }
                });
        assertThat(skipped)
                .as("tests (not containers) of the read matrix reported as skipped")
                .hasSize(4)
                .allSatisfy(reason -> assertThat(reason).contains("createProvider(StorageSettings)"));
    }
}
