package dev.agentpersistence.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The ready-made conditions and their messages. */
class ConditionsTest {
    private static final Function<String, String> TEXT = s -> s;

    @Test
    void markdownSectionPresentMatchesWholeHeadingLinesOutsideCodeFences() {
        Condition<String> overview = Conditions.markdownSectionPresent(TEXT, "# Overview");

        assertThat(overview.check("intro\n# Overview  \nbody")).isEmpty();
        assertThat(overview.check("## Overview\n# Overviews"))
                .containsExactly(new Violation("section # Overview", "section `# Overview` missing"));
        assertThat(overview.check("```\n# Overview\n```")).hasSize(1);
        assertThat(overview.check("~~~md\n# Overview\n~~~\n# Overview")).isEmpty();
        assertThat(overview.name()).isEqualTo("section # Overview");
    }

    @Test
    void countBetweenReportsTheRangeAndTheCount() {
        Condition<String> blocks = Conditions.countBetween("concept blocks", String::length, 3, 5);

        assertThat(blocks.check("abcd")).isEmpty();
        assertThat(blocks.check("abc")).isEmpty();
        assertThat(blocks.check("abcdefg"))
                .containsExactly(new Violation("concept blocks", "3-5 concept blocks expected, found 7"));
        assertThat(Conditions.countBetween("files", String::length, 2, 2).check("x"))
                .extracting(Violation::message)
                .containsExactly("2 files expected, found 1");
        assertThatThrownBy(() -> Conditions.countBetween("x", String::length, 5, 3))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void fieldEqualsShowsExpectedAndFound() {
        Condition<String> agent = Conditions.fieldEquals("CURRENT_AGENT", Docs::currentAgent, "concepts-writer");

        assertThat(agent.check("CURRENT_AGENT: concepts-writer")).isEmpty();
        assertThat(agent.check("CURRENT_AGENT: overview-writer"))
                .extracting(Violation::message)
                .containsExactly("`CURRENT_AGENT` expected `concepts-writer`, found `overview-writer`");
        assertThat(agent.check("nothing"))
                .extracting(Violation::message)
                .containsExactly("`CURRENT_AGENT` expected `concepts-writer`, found `null`");
    }

    @Test
    void balancedCodeFencesNamesTheLineOfTheUnclosedFence() {
        Condition<String> fences = Conditions.balancedCodeFences(TEXT);

        assertThat(fences.check("a\n```java\ncode\n```\nb")).isEmpty();
        assertThat(fences.check("a\n```java\ncode\n````\n")).isEmpty();
        assertThat(fences.check("a\n\n```java\ncode\n~~~\n"))
                .containsExactly(new Violation("balanced code fences", "code fence opened at line 3 is never closed"));
        assertThat(fences.check("````\n```\n"))
                .extracting(Violation::message)
                .containsExactly("code fence opened at line 1 is never closed");
        assertThat(fences.check("inline ``` is not a fence\n    ```indented code```"))
                .isEmpty();
        assertThat(fences.check("```\r\nwindows\r\n```\r\n")).isEmpty();
    }

    @Test
    void ofAndConditionOfBuildCustomChecks() {
        Condition<String> shortText = Conditions.of("short", s -> s.length() < 4, s -> "too long: " + s.length());
        assertThat(shortText.check("abc")).isEmpty();
        assertThat(shortText.check("abcdef")).containsExactly(new Violation("short", "too long: 6"));

        Condition<String> many = Condition.of(
                "letters",
                s -> s.chars()
                        .filter(Character::isDigit)
                        .mapToObj(c -> "digit " + (char) c)
                        .toList());
        assertThat(many.check("a1b2")).extracting(Violation::message).containsExactly("digit 1", "digit 2");
    }

    @Test
    void countMarkdownHeadingsIgnoresFencedLines() {
        String doc = "## Concept 1\n```\n## Concept in code\n```\n  ## Concept 2\n## Other";
        assertThat(Conditions.countMarkdownHeadings(doc, "## Concept")).isEqualTo(2);
        assertThat(Docs.conceptsMissingLevels(Docs.concepts(3))).isEmpty();
        assertThat(Docs.conceptsMissingLevels("## Concept A\n### Easy\n### Expert\n"))
                .containsExactly("`## Concept A` lacks `### Normal`");
        assertThat(Conditions.markdownSectionPresent(TEXT, " # Overview ").check("# Overview"))
                .isEmpty();
    }
}
