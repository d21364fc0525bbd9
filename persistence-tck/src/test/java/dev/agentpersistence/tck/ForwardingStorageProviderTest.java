package dev.agentpersistence.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.PersistenceStorageProvider;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The forwarding provider hides no capability: every method of the SPI, optional ones too, reaches the delegate. */
class ForwardingStorageProviderTest {

    @Test
    void forwardsEveryMethodOfTheSpi() throws Exception {
        List<Method> methods = Arrays.stream(PersistenceStorageProvider.class.getMethods())
                .filter(method -> !Modifier.isStatic(method.getModifiers()))
                .toList();
        Set<String> reached = new HashSet<>();
        @SuppressWarnings("unchecked")
        PersistenceStorageProvider<Object> delegate = (PersistenceStorageProvider<Object>) Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {PersistenceStorageProvider.class},
                (proxy, method, args) -> {
                    reached.add(method.getName());
                    return defaultAnswer(method.getReturnType());
                });
        var forwarding = new ForwardingStorageProvider<>(delegate);

        for (Method method : methods) {
            method.invoke(
                    forwarding,
                    Arrays.stream(method.getParameterTypes())
                            .map(ForwardingStorageProviderTest::defaultAnswer)
                            .toArray());
        }

        // the one-argument getCheckpoints and getLatestCheckpoint go through their two-argument forms, as documented
        assertThat(reached)
                .as("SPI methods that reach the delegate")
                .containsExactlyInAnyOrderElementsOf(
                        methods.stream().map(Method::getName).distinct().toList());
    }

    private static Object defaultAnswer(Class<?> type) {
        if (type == boolean.class) {
            return false;
        } else if (type == int.class) {
            return 0;
        } else if (type == long.class) {
            return 0L;
        } else if (type == java.util.Optional.class) {
            return java.util.Optional.empty();
        } else if (type == List.class) {
            return List.of();
        }
        return null;
    }
}
