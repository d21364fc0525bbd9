package dev.agentpersistence.pipeline;

import dev.agentpersistence.pipeline.internal.MarkdownScan;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * Ready-made {@link Condition}s for the common checks of a document-writing pipeline. Each takes a function that
 * extracts what to check from the state, so they work for any state type, e.g.
 * {@code Conditions.markdownSectionPresent(ws -> ws.read("doc.md"), "# Overview")}.
 */
public final class Conditions {
    private Conditions() {}

    /**
     * Holds when {@code holds} is true; otherwise one violation with the message {@code message} computes from the
     * state.
     */
    public static <S> Condition<S> of(String name, Predicate<? super S> holds, Function<? super S, String> message) {
        Objects.requireNonNull(holds, "holds");
        Objects.requireNonNull(message, "message");
        return Condition.of(name, state -> holds.test(state) ? List.of() : List.of(message.apply(state)));
    }

    /**
     * Holds when the markdown has a line (outside code fences) equal to {@code heading} after trimming, e.g. {@code "#
     * Overview"}. Violation: {@code "section `# Overview` missing"}.
     */
    public static <S> Condition<S> markdownSectionPresent(Function<? super S, String> markdown, String heading) {
        Objects.requireNonNull(markdown, "markdown");
        String wanted = requireText(heading, "heading");
        return of(
                "section " + wanted,
                state -> MarkdownScan.proseLines(markdown.apply(state)).stream()
                        .anyMatch(l -> l.strip().equals(wanted)),
                state -> "section `" + wanted + "` missing");
    }

    /**
     * Holds when {@code count} is within {@code [min, max]}. Violation: {@code "3-5 concept blocks expected, found 7"}
     * for the name {@code "concept blocks"}.
     */
    public static <S> Condition<S> countBetween(String name, ToIntFunction<? super S> count, int min, int max) {
        requireText(name, "name");
        Objects.requireNonNull(count, "count");
        if (min < 0 || max < min) {
            throw new IllegalArgumentException("need 0 <= min <= max but got min " + min + ", max " + max);
        }
        String range = min == max ? Integer.toString(min) : min + "-" + max;
        return Condition.of(name, state -> {
            int found = count.applyAsInt(state);
            return found >= min && found <= max ? List.of() : List.of(range + " " + name + " expected, found " + found);
        });
    }

    /**
     * Holds when {@code field} returns a value equal to {@code expected}. Violation: {@code "`CURRENT_AGENT` expected
     * `concepts-writer`, found `overview-writer`"}.
     */
    public static <S> Condition<S> fieldEquals(String name, Function<? super S, ?> field, Object expected) {
        requireText(name, "name");
        Objects.requireNonNull(field, "field");
        return Condition.of(name, state -> {
            Object actual = field.apply(state);
            return Objects.equals(actual, expected)
                    ? List.of()
                    : List.of("`" + name + "` expected `" + expected + "`, found `" + actual + "`");
        });
    }

    /**
     * Holds when every fenced code block ({@code ```} or {@code ~~~}) of the markdown is closed. Violation:
     * {@code "code fence opened at line 12 is never closed"}.
     */
    public static <S> Condition<S> balancedCodeFences(Function<? super S, String> markdown) {
        Objects.requireNonNull(markdown, "markdown");
        return Condition.of("balanced code fences", state -> {
            var unclosed = MarkdownScan.unclosedFenceLine(markdown.apply(state));
            return unclosed.isEmpty()
                    ? List.of()
                    : List.of("code fence opened at line " + unclosed.getAsInt() + " is never closed");
        });
    }

    /**
     * The number of lines (outside code fences) that start with {@code headingPrefix} after trimming, e.g.
     * {@code countMarkdownHeadings(doc, "## Concept")}; for {@link #countBetween}.
     */
    public static int countMarkdownHeadings(String markdown, String headingPrefix) {
        Objects.requireNonNull(markdown, "markdown");
        String prefix = requireText(headingPrefix, "headingPrefix");
        return (int) MarkdownScan.proseLines(markdown).stream()
                .filter(l -> l.strip().startsWith(prefix))
                .count();
    }

    private static String requireText(String value, String what) {
        Objects.requireNonNull(value, what);
        String stripped = value.strip();
        if (stripped.isEmpty()) {
            throw new IllegalArgumentException(what + " must not be blank");
        }
        return stripped;
    }
}
