package dev.agentpersistence.tck;

import dev.agentpersistence.Identifiers;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Valid ids that break providers which use ids as paths, keys, patterns or SQL, and invalid ids that every provider
 * must reject. Provider authors can use them in their own tests.
 */
public final class HostileIds {

    private static final List<String> VALID = List.of(
            "../../etc/passwd",
            "..",
            ".",
            "a/b",
            "/absolute",
            "a\\b",
            "C:\\Windows\\win.ini",
            "'; DROP TABLE x;--",
            "\" OR \"\"=\"",
            "%2F",
            "%",
            "%00",
            "_",
            "*",
            "?",
            "[abc]",
            "{tag}",
            "#fragment",
            "?a=b&c=d",
            "~",
            "$(rm -rf /)",
            "`id`",
            "<b>&amp;</b>",
            "with spaces",
            " leading and trailing ",
            "trailing.",
            "CON",
            "nul",
            "a:b",
            "-",
            "+=",
            "🙂 emoji 👩‍👩‍👧",
            "日本語のエージェント",
            "\u200Bzero-width",
            "\uFEFFbom",
            "null",
            "\\u0000",
            "'",
            "Agent",
            "agent",
            "x",
            "x ",
            "\u00E9",
            "e\u0301",
            maxLength('m'));

    private HostileIds() {}

    /**
     * Valid ids that must be stored and found exactly: path traversal, separators, SQL, URL escapes, glob and regex
     * characters, spaces, emoji, pairs that differ only in case, a trailing space or Unicode normalization, and one of
     * exactly {@value Identifiers#MAX_LENGTH} characters.
     */
    public static List<String> valid() {
        return VALID;
    }

    /** Ids the API rejects with {@link dev.agentpersistence.InvalidIdentifierException}. */
    public static List<String> invalid() {
        return List.of(
                "",
                "nul\u0000inside",
                "tab\there",
                "line\nbreak",
                "\u007F",
                "unpaired \uD83D surrogate",
                maxLength('x') + "x");
    }

    /**
     * Agent ids made of each {@linkplain #valid() hostile id} and {@code unique}, once with the hostile part first and
     * once last (so both a leading {@code ../} and a trailing {@code /..} are tried); ids that would grow too long are
     * cut to exactly {@link Identifiers#MAX_LENGTH} characters.
     */
    public static List<String> agentIds(String unique) {
        var agents = new LinkedHashSet<String>();
        for (String hostile : VALID) {
            if (hostile.length() + unique.length() + 1 <= Identifiers.MAX_LENGTH) {
                agents.add(hostile + "~" + unique);
                agents.add(unique + "/" + hostile);
            } else {
                agents.add(unique + hostile.substring(unique.length()));
            }
        }
        return new ArrayList<>(agents);
    }

    /** An id of exactly {@link Identifiers#MAX_LENGTH} characters made of {@code c}. */
    public static String maxLength(char c) {
        return String.valueOf(c).repeat(Identifiers.MAX_LENGTH);
    }
}
