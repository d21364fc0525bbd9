package dev.agentpersistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IdentifiersTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "a",
                "agent-1",
                "../../etc/passwd",
                "a/b",
                "'; DROP TABLE x;--",
                "%2F",
                "*",
                "{tag}",
                "with spaces",
                "😀 emoji",
                "日本語",
                "\"quoted\"",
                "back\\slash",
                " leading"
            })
    void acceptsAnyPrintableId(String id) {
        assertThat(Identifiers.requireValid(id, "agentId")).isSameAs(id);
        assertThat(Identifiers.isValid(id)).isTrue();
    }

    @Test
    void acceptsExactlyTheMaximumLength() {
        var id = "x".repeat(Identifiers.MAX_LENGTH);
        assertThat(Identifiers.isValid(id)).isTrue();
        assertThat(Identifiers.isValid("😀".repeat(Identifiers.MAX_LENGTH / 2))).isTrue();
    }

    @Test
    void rejectsNullAndEmpty() {
        assertThatThrownBy(() -> Identifiers.requireValid(null, "agentId"))
                .isInstanceOf(InvalidIdentifierException.class)
                .hasMessage("agentId must not be null");
        assertThatThrownBy(() -> Identifiers.requireValid("", "checkpointId"))
                .isInstanceOf(InvalidIdentifierException.class)
                .hasMessage("checkpointId must not be empty");
        assertThat(Identifiers.isValid(null)).isFalse();
        assertThat(Identifiers.isValid("")).isFalse();
    }

    @Test
    void rejectsTooLongIdsNamingTheLength() {
        var id = "y".repeat(Identifiers.MAX_LENGTH + 1);
        assertThatThrownBy(() -> Identifiers.requireValid(id, "agentId"))
                .isInstanceOf(InvalidIdentifierException.class)
                .hasMessageContaining("agentId is 257 characters long")
                .hasMessageContaining("at most 256")
                .hasMessageContaining("y".repeat(32) + "…");
    }

    @Test
    void rejectsControlCharactersNamingCodeAndIndex() {
        assertThatThrownBy(() -> Identifiers.requireValid("ab\ncd", "agentId"))
                .isInstanceOf(InvalidIdentifierException.class)
                .hasMessage("agentId contains control character U+000A at index 2");
        assertThat(Identifiers.isValid("a\u0000")).isFalse();
        assertThat(Identifiers.isValid("a\u007f")).isFalse();
        assertThat(Identifiers.isValid("a\u0085")).isFalse();
        assertThat(Identifiers.isValid("tab\there")).isFalse();
    }

    @Test
    void rejectsUnpairedSurrogates() {
        assertThatThrownBy(() -> Identifiers.requireValid("a\uD83D", "agentId"))
                .isInstanceOf(InvalidIdentifierException.class)
                .hasMessage("agentId contains an unpaired surrogate U+D83D at index 1");
        assertThatThrownBy(() -> Identifiers.requireValid("\uDE00b", "agentId"))
                .hasMessage("agentId contains an unpaired surrogate U+DE00 at index 0");
        assertThat(Identifiers.isValid("\uD83Dx")).isFalse();
    }

    @Test
    void isAPersistenceException() {
        assertThat(new InvalidIdentifierException("x")).isInstanceOf(PersistenceException.class);
    }
}
