package dev.agentpersistence.spring.boot.autoconfigure;

import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** The condition behind {@link ConditionalOnChosenProvider}. */
final class OnChosenProviderCondition extends SpringBootCondition {
    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        String wanted = (String) metadata.getAnnotationAttributes(ConditionalOnChosenProvider.class.getName())
                .get("value");
        ClassLoader classLoader = context.getClassLoader();
        Optional<String> chosen =
                ChosenProvider.name(EnvironmentProviderConfig.from(context.getEnvironment(), classLoader), classLoader);
        return chosen.filter(wanted::equals).isPresent()
                ? ConditionOutcome.match("storage provider '" + wanted + "' is chosen")
                : ConditionOutcome.noMatch(
                        "storage provider chosen: " + chosen.orElse("none or several") + ", not '" + wanted + "'");
    }
}
