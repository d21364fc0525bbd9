package dev.agentpersistence.s3;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/** Records the S3 operations a client makes (one entry per API call), to check how much a query costs. */
final class RequestLog implements ExecutionInterceptor {
    private final List<String> operations = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        operations.add(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME));
    }

    /** The operations since the last call, in order, and forgets them. */
    List<String> take() {
        synchronized (operations) {
            var copy = List.copyOf(operations);
            operations.clear();
            return copy;
        }
    }
}
