package dev.agentpersistence.spring.boot.autoconfigure;

import dev.agentpersistence.PersistenceStorageProvider;
import java.util.Arrays;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when the storage provider bean stores something: the application defines a provider bean of its own, or
 * discovery chooses a provider other than the no-op one. Chat memory over the no-op provider would forget every message
 * without a word, so it is not configured then.
 */
final class OnStoringProviderCondition extends SpringBootCondition {
    /** The name of every provider bean this auto-configuration defines itself. */
    static final String OWN_PROVIDER_BEAN = "agentPersistenceStorageProvider";

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        var beanFactory = context.getBeanFactory();
        if (beanFactory != null
                && Arrays.stream(beanFactory.getBeanNamesForType(PersistenceStorageProvider.class, true, false))
                        .anyMatch(name -> !name.equals(OWN_PROVIDER_BEAN))) {
            return ConditionOutcome.match("the application defines its own storage provider");
        }
        ClassLoader classLoader = context.getClassLoader();
        Optional<String> chosen =
                ChosenProvider.name(EnvironmentProviderConfig.from(context.getEnvironment(), classLoader), classLoader);
        return chosen.filter(name -> !name.equals("none")).isPresent()
                ? ConditionOutcome.match("storage provider '" + chosen.get() + "' is chosen")
                : ConditionOutcome.noMatch("no storage provider that stores anything is chosen (the no-op provider, or "
                        + "several provider modules without agent.persistence.provider)");
    }
}
