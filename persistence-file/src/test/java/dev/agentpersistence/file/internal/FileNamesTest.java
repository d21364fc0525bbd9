package dev.agentpersistence.file.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.Identifiers;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class FileNamesTest {
    static final List<String> HOSTILE = List.of(
            "../../etc/passwd",
            "..",
            ".",
            "a/b",
            "/absolute",
            "a\\b",
            "C:\\Windows\\win.ini",
            "'; DROP TABLE x;--",
            "%2F",
            "%",
            "%00",
            "*",
            "?",
            "{tag}",
            "~",
            "with spaces",
            " leading and trailing ",
            "trailing.",
            ".hidden",
            "CON",
            "con",
            "nul",
            "Com1",
            "lpt9",
            "a:b",
            "-",
            "_",
            "🙂 emoji 👩‍👩‍👧",
            "日本語のエージェント",
            "\u200Bzero-width",
            "\uFEFFbom",
            "Agent",
            "agent",
            "AGENT",
            "\u00E9",
            "e\u0301",
            ".ids",
            ".tmp-x",
            ".agent-id",
            "0000000000000000001.checkpoint",
            "m".repeat(256),
            "M".repeat(256),
            "🙂".repeat(128),
            "%".repeat(256),
            "a".repeat(200),
            "a".repeat(201),
            "é".repeat(67) + "x");

    @Test
    void everyNameIsASafePortableFileName() {
        for (String id : HOSTILE) {
            String name = FileNames.encode(id);
            assertThat(name)
                    .as("name of %s", id)
                    .matches("[a-z0-9_%~A-F-]+")
                    .doesNotStartWith(".")
                    .doesNotContain("/", "\\", "..");
            assertThat(name.getBytes(StandardCharsets.UTF_8).length)
                    .as("bytes of the name of %s", id)
                    .isLessThanOrEqualTo(255);
            assertThat(List.of("con", "prn", "aux", "nul", "com1", "lpt9"))
                    .doesNotContain(name.toLowerCase(Locale.ROOT));
        }
    }

    @Test
    void plainNamesDecodeToTheirId() {
        for (String id : HOSTILE) {
            String name = FileNames.encode(id);
            if (FileNames.isHashed(name)) {
                assertThat(FileNames.decode(name)).isEmpty();
            } else {
                assertThat(FileNames.decode(name)).as("decode %s", name).contains(id);
            }
        }
    }

    @Test
    void distinctIdsNeverCollideEvenOnCaseInsensitiveFileSystems() {
        var folded = new HashSet<String>();
        for (String id : new HashSet<>(HOSTILE)) {
            assertThat(folded.add(FileNames.encode(id).toLowerCase(Locale.ROOT)))
                    .as("unique name for %s", id)
                    .isTrue();
        }
    }

    @Test
    void longIdsGetAHashedNameThatKeepsDistinctIdsApart() {
        String a = "x".repeat(Identifiers.MAX_LENGTH);
        String b = "x".repeat(Identifiers.MAX_LENGTH - 1) + "y";
        assertThat(FileNames.encode(a)).contains("~").hasSizeLessThanOrEqualTo(FileNames.MAX_PLAIN_LENGTH);
        assertThat(FileNames.encode(a)).isNotEqualTo(FileNames.encode(b));
        assertThat(FileNames.encode("a".repeat(200))).doesNotContain("~");
    }

    @Test
    void hashedPrefixNeverCutsAnEscapeInHalf() {
        for (int pad = 0; pad < 3; pad++) {
            String name = FileNames.encode("a".repeat(pad) + "é".repeat(100));
            String prefix = name.substring(0, name.indexOf('~'));
            assertThat(prefix).matches("a*(%[0-9A-F]{2})*");
        }
    }

    @Test
    void foreignNamesDoNotDecode() {
        assertThat(FileNames.decode("Upper")).isEmpty();
        assertThat(FileNames.decode("%4a")).isEmpty(); // lower-case hex is never produced
        assertThat(FileNames.decode("%4")).isEmpty();
        assertThat(FileNames.decode("con")).isEmpty(); // produced as %63on
        assertThat(FileNames.decode("%FF")).isEmpty(); // not UTF-8
        assertThat(FileNames.decode("%0A")).isEmpty(); // control character: not a valid id
        assertThat(FileNames.decode(".ids")).isEmpty();
        assertThat(FileNames.decode("")).isEmpty();
    }

    @Test
    void versionNamesSortLikeVersions() {
        long[] versions = {0, 1, 9, 10, 99, 100, 123456789, Long.MAX_VALUE};
        for (int i = 1; i < versions.length; i++) {
            assertThat(FileNames.versionFileName(versions[i - 1])).isLessThan(FileNames.versionFileName(versions[i]));
        }
        for (long version : versions) {
            assertThat(FileNames.parseVersion(FileNames.versionFileName(version)))
                    .hasValue(version);
        }
        assertThat(FileNames.parseVersion("9999999999999999999.checkpoint")).isEmpty();
        assertThat(FileNames.parseVersion("0000000000000000001.checkpoint.tmp")).isEmpty();
        assertThat(FileNames.parseVersion(".tmp-0000000000000000001.checkpoint"))
                .isEmpty();
    }
}
