package dev.agentpersistence.redis;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Hands a {@link RedisTestCluster} to test methods (typically a static {@code @BeforeAll}). One cluster is started per
 * test run on first use and shut down by JUnit when the run ends.
 */
final class RedisClusterExtension implements ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(RedisClusterExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == RedisTestCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot()
                .getStore(NAMESPACE)
                .getOrComputeIfAbsent("cluster", key -> RedisTestCluster.start(), RedisTestCluster.class);
    }
}
