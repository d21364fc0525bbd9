package dev.agentpersistence.benchmarks.peer;

import java.util.function.Function;
import kotlin.coroutines.Continuation;
import kotlin.coroutines.EmptyCoroutineContext;
import kotlin.jvm.functions.Function2;
import kotlinx.coroutines.BuildersKt;
import kotlinx.coroutines.CoroutineScope;

/** Calls a Kotlin suspend function from Java and waits for it, as {@code runBlocking { ... }} does. */
final class Coroutines {
    private Coroutines() {}

    /**
     * Runs {@code call} (a suspend function invoked with the continuation it is given) inside {@code runBlocking} and
     * returns its result.
     */
    @SuppressWarnings("unchecked")
    static <T> T await(Function<Continuation<? super T>, Object> call) throws InterruptedException {
        Function2<CoroutineScope, Continuation<? super T>, Object> block =
                (scope, continuation) -> call.apply(continuation);
        return BuildersKt.runBlocking(EmptyCoroutineContext.INSTANCE, block);
    }
}
