package dev.agentpersistence.file.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;

/**
 * Reads and writes the text of the head file and of the head state. Lines, each ended by {@code \n}:
 *
 * <pre>
 * agent-persistence-head 1
 * boot 6f0c…                                   the writer's boot id, or -
 * latest 42                                    or: latest none, latest unknown
 * writer 3fa9c0d1e2b4 12345 1732240000000 9c1e… 43 1732245000000   zero or more (state only)
 * crc32c 0a1b2c3d                              CRC-32C of all bytes before this line
 * </pre>
 *
 * Parsing is strict and never throws: anything else — a missing or extra line, a wrong checksum, a negative or
 * oversized number, more than {@link #MAX_BYTES} bytes — is "no head" (readers then list the directory). A head whose
 * content was lost (empty or zero-filled after a power loss) fails the checksum.
 */
final class HeadFormat {
    /** Longest head file accepted; larger files are not read further and count as garbled. */
    static final int MAX_BYTES = 64 * 1024;
    /** The host of a writer whose process could not be identified. */
    static final String UNKNOWN_HOST = "-";

    private static final String MAGIC = "agent-persistence-head 1";
    private static final String CRC = "crc32c ";
    private static final String NUMBER = "(0|[1-9][0-9]{0,18})";
    private static final Pattern BOOT = Pattern.compile("boot ([0-9a-zA-Z-]{1,64})");
    private static final Pattern LATEST = Pattern.compile("latest (none|unknown|" + NUMBER + ")");
    private static final Pattern WRITER = Pattern.compile("writer ([0-9a-f]{" + WriterProcess.HOST_LENGTH + "}|-) "
            + NUMBER + " " + NUMBER + " ([0-9a-f]{1,32}) " + NUMBER + " " + NUMBER);
    private static final Pattern CHECKSUM = Pattern.compile(CRC + "([0-9a-f]{8})");

    private HeadFormat() {}

    /** The file content of {@code head}. */
    static byte[] format(HeadState head) {
        var text = new StringBuilder(96 + 96 * head.writers().size());
        text.append(MAGIC).append('\n');
        text.append("boot ").append(head.boot()).append('\n');
        text.append("latest ")
                .append(
                        head.latest() == HeadState.NONE
                                ? "none"
                                : head.latest() == HeadState.UNKNOWN ? "unknown" : Long.toString(head.latest()))
                .append('\n');
        for (HeadState.Writer writer : head.writers()) {
            text.append("writer ")
                    .append(writer.host())
                    .append(' ')
                    .append(writer.pid())
                    .append(' ')
                    .append(writer.startMillis())
                    .append(' ')
                    .append(writer.token())
                    .append(' ')
                    .append(writer.version())
                    .append(' ')
                    .append(writer.sinceMillis())
                    .append('\n');
        }
        byte[] body = text.toString().getBytes(StandardCharsets.US_ASCII);
        String trailer = CRC + crcHex(body, body.length) + "\n";
        byte[] all = new byte[body.length + trailer.length()];
        System.arraycopy(body, 0, all, 0, body.length);
        System.arraycopy(trailer.getBytes(StandardCharsets.US_ASCII), 0, all, body.length, trailer.length());
        return all;
    }

    /** The head in {@code bytes}; empty when they are not a well-formed head (see the class documentation). */
    static Optional<HeadState> parse(byte[] bytes) {
        if (bytes.length == 0 || bytes.length > MAX_BYTES || bytes[bytes.length - 1] != '\n') {
            return Optional.empty();
        }
        for (byte b : bytes) {
            if (b < 0x20 && b != '\n' || b >= 0x7f) {
                return Optional.empty();
            }
        }
        String text = new String(bytes, StandardCharsets.US_ASCII);
        int trailerStart = text.lastIndexOf('\n', text.length() - 2) + 1;
        var checksum = CHECKSUM.matcher(text.substring(trailerStart, text.length() - 1));
        if (trailerStart == 0 || !checksum.matches() || !checksum.group(1).equals(crcHex(bytes, trailerStart))) {
            return Optional.empty();
        }
        String[] lines = text.substring(0, trailerStart - 1).split("\n", -1);
        if (lines.length < 3 || !lines[0].equals(MAGIC)) {
            return Optional.empty();
        }
        var boot = BOOT.matcher(lines[1]);
        var latest = LATEST.matcher(lines[2]);
        if (!boot.matches() || !latest.matches()) {
            return Optional.empty();
        }
        try {
            long latestValue = switch (latest.group(1)) {
                case "none" -> HeadState.NONE;
                case "unknown" -> HeadState.UNKNOWN;
                default -> Long.parseLong(latest.group(1));
            };
            var writers = new ArrayList<HeadState.Writer>(lines.length - 3);
            for (int i = 3; i < lines.length; i++) {
                var writer = WRITER.matcher(lines[i]);
                if (!writer.matches()) {
                    return Optional.empty();
                }
                writers.add(new HeadState.Writer(
                        writer.group(1),
                        Long.parseLong(writer.group(2)),
                        Long.parseLong(writer.group(3)),
                        writer.group(4),
                        Long.parseLong(writer.group(5)),
                        Long.parseLong(writer.group(6))));
            }
            return Optional.of(new HeadState(boot.group(1), latestValue, writers));
        } catch (NumberFormatException e) {
            return Optional.empty(); // 19 digits above Long.MAX_VALUE
        }
    }

    private static String crcHex(byte[] bytes, int length) {
        var crc = new CRC32C();
        crc.update(bytes, 0, length);
        return HexFormat.of().toHexDigits((int) crc.getValue());
    }
}
