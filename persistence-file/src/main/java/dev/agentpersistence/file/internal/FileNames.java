package dev.agentpersistence.file.internal;

import dev.agentpersistence.Identifiers;
import dev.agentpersistence.backend.SortableDigits;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The names the file layout uses, and the reversible encoding that turns any valid id into a safe file name.
 *
 * <p>An id is encoded byte by byte from UTF-8: {@code a-z}, {@code 0-9}, {@code _} and {@code -} stay as they are;
 * every other byte becomes {@code %XX} (upper-case hex). Names are therefore plain ASCII, never contain a separator,
 * never start with a dot, and two different ids never give names that differ only in letter case. A name that would
 * spell a Windows device name ({@code con}, {@code nul}, {@code com1}, …) gets its first character escaped. When the
 * encoded name is longer than {@value #MAX_PLAIN_LENGTH} characters, it is cut and followed by {@code ~} and the
 * SHA-256 of the id; such a hashed name is not reversible, so the real id is kept inside the stored document (and in an
 * {@value #AGENT_ID_FILE} file for agent directories).
 */
public final class FileNames {
    /** Longest encoded name kept whole; longer ones are hashed. Well under the usual 255-byte limit. */
    public static final int MAX_PLAIN_LENGTH = 200;
    /** Characters of the encoded id kept in front of the hash of a hashed name. */
    static final int HASHED_PREFIX_LENGTH = 96;

    /** Sub-directory of an agent directory holding one id entry (a hard link) per checkpoint. */
    public static final String IDS_DIRECTORY = ".ids";
    /** Sub-directory of an agent directory holding the agent's history segments. */
    public static final String SEGMENTS_DIRECTORY = ".segments";
    /** File in a hashed agent directory holding the agent id in UTF-8. */
    public static final String AGENT_ID_FILE = ".agent-id";
    /** File in an agent directory naming its latest version while no save is in flight ({@link AgentHead}). */
    public static final String HEAD_FILE = ".head";
    /** File in an agent directory holding the head's state; its advisory lock guards changes of both. */
    public static final String HEAD_LOCK_FILE = ".head.lock";
    /** File in an agent directory holding its checkpoints as appended records ({@link JournalFormat}). */
    public static final String JOURNAL_FILE = ".journal";
    /** Prefix of files being written; never read as checkpoints. */
    public static final String TEMP_PREFIX = ".tmp-";
    /** Prefix of id entries being removed; never read as checkpoints. */
    public static final String TRASH_PREFIX = ".trash-";
    /** Suffix of checkpoint files. */
    public static final String CHECKPOINT_SUFFIX = ".checkpoint";

    private static final char HASH_MARK = '~';
    private static final int VERSION_DIGITS = SortableDigits.LONG_DIGITS;
    private static final Pattern VERSION_NAME =
            Pattern.compile("[0-9]{" + VERSION_DIGITS + "}" + Pattern.quote(CHECKPOINT_SUFFIX));
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();
    private static final Set<String> DEVICE_NAMES = Set.of(
            "con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8", "com9", "lpt1",
            "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9");

    private FileNames() {}

    /** The file name for {@code id}; see the class documentation. */
    public static String encode(String id) {
        byte[] utf8 = id.getBytes(StandardCharsets.UTF_8);
        var name = new StringBuilder(utf8.length * 3);
        for (byte b : utf8) {
            if (isLiteral(b)) {
                name.append((char) b);
            } else {
                escape(name, b);
            }
        }
        if (DEVICE_NAMES.contains(name.toString())) {
            char first = name.charAt(0);
            name.deleteCharAt(0);
            name.insert(0, escape(new StringBuilder(), (byte) first));
        }
        if (name.length() <= MAX_PLAIN_LENGTH) {
            return name.toString();
        }
        int cut = HASHED_PREFIX_LENGTH;
        // never cut an escape in half
        if (name.charAt(cut - 1) == '%') {
            cut -= 1;
        } else if (name.charAt(cut - 2) == '%') {
            cut -= 2;
        }
        return name.substring(0, cut) + HASH_MARK + sha256(utf8);
    }

    /** Whether {@code name} is a hashed (not reversible) name. */
    public static boolean isHashed(String name) {
        return name.indexOf(HASH_MARK) >= 0;
    }

    /**
     * The id a plain name was made from; empty for hashed names and for names this encoding never produces (foreign
     * files).
     */
    public static Optional<String> decode(String name) {
        if (name.isEmpty() || isHashed(name)) {
            return Optional.empty();
        }
        var bytes = ByteBuffer.allocate(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '%') {
                if (i + 2 >= name.length()) {
                    return Optional.empty();
                }
                int high = Character.digit(name.charAt(i + 1), 16);
                int low = Character.digit(name.charAt(i + 2), 16);
                if (high < 0 || low < 0) {
                    return Optional.empty();
                }
                bytes.put((byte) (high << 4 | low));
                i += 2;
            } else if (c < 0x80 && isLiteral((byte) c)) {
                bytes.put((byte) c);
            } else {
                return Optional.empty();
            }
        }
        bytes.flip();
        String id;
        try {
            id = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(bytes)
                    .toString();
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
        if (!Identifiers.isValid(id) || !encode(id).equals(name)) {
            return Optional.empty();
        }
        return Optional.of(id);
    }

    /** The checkpoint file name of {@code version}: zero-padded so names sort like versions. */
    public static String versionFileName(long version) {
        if (version < 0) {
            return String.format(Locale.ROOT, "%0" + VERSION_DIGITS + "d", version) + CHECKPOINT_SUFFIX;
        }
        return SortableDigits.of(version, VERSION_DIGITS) + CHECKPOINT_SUFFIX;
    }

    /** The version a checkpoint file name stands for; empty for any other name. */
    public static OptionalLong parseVersion(String fileName) {
        if (!VERSION_NAME.matcher(fileName).matches()) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(fileName.substring(0, VERSION_DIGITS)));
        } catch (NumberFormatException e) {
            return OptionalLong.empty(); // 19 digits above Long.MAX_VALUE
        }
    }

    /** Whether {@code fileName} is a temporary or trash file that readers ignore. */
    public static boolean isScratch(String fileName) {
        return fileName.startsWith(TEMP_PREFIX) || fileName.startsWith(TRASH_PREFIX);
    }

    private static boolean isLiteral(byte b) {
        return (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9') || b == '_' || b == '-';
    }

    private static StringBuilder escape(StringBuilder out, byte b) {
        return out.append('%').append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
