package dev.agentpersistence.benchmarks.adk;

import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.sessions.BaseSessionService;
import com.google.adk.sessions.Session;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.agentpersistence.benchmarks.fixture.TextSource;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ADK session workload: one session is created, then {@code events} events are appended to it one after the other,
 * alternately a user message of {@value #USER_CHARS} characters and a model answer of {@value #MODEL_CHARS} characters
 * carrying the state delta {@code turn = n}, as a {@code Runner} appends them. The texts are the same for every
 * service. Then the session is read back whole and its events counted.
 */
final class AdkAppendWorkload {
    static final int USER_CHARS = 200;
    static final int MODEL_CHARS = 800;
    static final String APP = "bench-app";
    static final String USER = "bench-user";

    /**
     * What one run measured.
     *
     * @param appendNanos the time of each {@code appendEvent}, in order
     * @param sessionJsonBytes the UTF-8 length of the session read back, as ADK's {@code Session.toJson()} writes it
     */
    record Result(long[] appendNanos, long sessionJsonBytes) {
        /** The nearest-rank percentile {@code p} (0 to 100) of the append times, in milliseconds. */
        double percentileMillis(double p) {
            long[] sorted = appendNanos.clone();
            Arrays.sort(sorted);
            int rank = (int) Math.ceil(p / 100.0 * sorted.length);
            return sorted[Math.max(0, rank - 1)] / 1e6;
        }

        /** The median time (nearest rank) of the appends {@code from} (inclusive) to {@code to} (exclusive), in ms. */
        double medianMillis(int from, int to) {
            long[] part = Arrays.copyOfRange(appendNanos, Math.max(0, from), Math.min(to, appendNanos.length));
            if (part.length == 0) {
                return 0;
            }
            Arrays.sort(part);
            return part[(part.length - 1) / 2] / 1e6;
        }

        /** The mean time of the appends {@code from} (inclusive) to {@code to} (exclusive), in milliseconds. */
        double meanMillis(int from, int to) {
            return Arrays.stream(appendNanos, Math.max(0, from), Math.min(to, appendNanos.length))
                            .average()
                            .orElse(0)
                    / 1e6;
        }

        /** The mean append time, in milliseconds. */
        double meanMillis() {
            return Arrays.stream(appendNanos).average().orElse(0) / 1e6;
        }
    }

    private AdkAppendWorkload() {}

    /** Runs the workload on {@code service} in the session {@code sessionId}, and checks what it reads back. */
    static Result run(BaseSessionService service, String sessionId, int events) {
        var text = new TextSource(20_261_202L);
        Session session = service.createSession(APP, USER, new ConcurrentHashMap<>(), sessionId)
                .blockingGet();
        long[] nanos = new long[events];
        long timestamp = 1_790_000_000_000L;
        for (int i = 0; i < events; i++) {
            Event event = i % 2 == 0
                    ? user(text.next(USER_CHARS), timestamp + i)
                    : model(text.next(MODEL_CHARS), i / 2, timestamp + i);
            long started = System.nanoTime();
            service.appendEvent(session, event).blockingGet();
            nanos[i] = System.nanoTime() - started;
        }
        Session read =
                service.getSession(APP, USER, sessionId, Optional.empty()).blockingGet();
        if (read.events().size() != events) {
            throw new IllegalStateException(
                    "the session read back holds " + read.events().size() + " events, not " + events + " ("
                            + service.getClass().getSimpleName() + ")");
        }
        if (events > 1
                && !Integer.valueOf(events / 2 - 1).equals(asInt(read.state().get("turn")))) {
            throw new IllegalStateException(
                    "the session read back has turn = " + read.state().get("turn"));
        }
        return new Result(nanos, read.toJson().getBytes(StandardCharsets.UTF_8).length);
    }

    private static Integer asInt(Object value) {
        return value instanceof Number number ? number.intValue() : null;
    }

    private static Event user(String text, long timestamp) {
        return Event.builder()
                .id(Event.generateEventId())
                .invocationId("invocation-" + timestamp)
                .author("user")
                .content(Content.builder()
                        .role("user")
                        .parts(Part.fromText(text))
                        .build())
                .timestamp(timestamp)
                .build();
    }

    private static Event model(String text, int turn, long timestamp) {
        return Event.builder()
                .id(Event.generateEventId())
                .invocationId("invocation-" + (timestamp - 1))
                .author("assistant")
                .content(Content.builder()
                        .role("model")
                        .parts(Part.fromText(text))
                        .build())
                .actions(EventActions.builder()
                        .stateDelta(new ConcurrentHashMap<>(Map.of("turn", turn)))
                        .build())
                .timestamp(timestamp)
                .build();
    }
}
