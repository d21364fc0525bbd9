package dev.agentpersistence.spring.boot.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.context.annotation.Conditional;

/**
 * Matches when discovery would choose the provider named {@link #value()}: it is named by
 * {@code agent.persistence.provider}, or it is the only one on the class path.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Conditional(OnChosenProviderCondition.class)
public @interface ConditionalOnChosenProvider {
    /** The factory name: {@code jdbc}, {@code redis}, {@code s3}, …. */
    String value();
}
