package dev.agentpersistence.springai;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.content.Media;
import org.springframework.util.MimeType;

/**
 * Random Spring AI messages of every type, reproducible from a seed: texts with unicode and JSON characters, null
 * fields where Spring AI allows them, metadata of every supported value type nested in lists and maps, media as bytes,
 * URI strings and URLs, and tool calls with JSON, spaced JSON and non-JSON arguments.
 */
final class RandomMessages {
    private static final String[] TEXTS = {
        "",
        "hello",
        "naïve café ☕",
        "line\nbreak\ttab",
        "{\"json\": true}",
        "\"quoted\" 'single' \\back",
        "日本語のテキスト",
        "emoji 🧪🚀",
        " leading and trailing ",
        "%s %d ${x}"
    };
    private static final String[] MIME_TYPES = {
        "image/png", "image/jpeg", "audio/wav", "video/mp4", "application/pdf", "text/plain;charset=UTF-8", "text/csv"
    };
    private static final String[] ARGUMENTS = {
        "{\"city\":\"Paris\"}",
        "{\"city\": \"Paris\", \"days\": 3}",
        "{}",
        "",
        "not json",
        "[1,2,3]",
        "42",
        "{\"nested\":{\"a\":[true,null,1.5]}}",
        "{\"a\":1} trailing"
    };

    private final Random random;

    RandomMessages(long seed) {
        this.random = new Random(seed);
    }

    /** Between 0 and {@code max} messages of random types. */
    List<Message> conversation(int max) {
        int size = random.nextInt(max + 1);
        List<Message> messages = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            messages.add(message());
        }
        return messages;
    }

    Message message() {
        return switch (random.nextInt(4)) {
            case 0 -> SystemMessage.builder().text(text()).metadata(metadata()).build();
            case 1 ->
                UserMessage.builder()
                        .text(text())
                        .media(media())
                        .metadata(metadata())
                        .build();
            case 2 ->
                AssistantMessage.builder()
                        .content(random.nextInt(5) == 0 ? null : text())
                        .properties(metadata())
                        .toolCalls(list(3, this::toolCall))
                        .media(media())
                        .build();
            default ->
                ToolResponseMessage.builder()
                        .responses(list(3, this::toolResponse))
                        .metadata(metadata())
                        .build();
        };
    }

    private AssistantMessage.ToolCall toolCall() {
        return new AssistantMessage.ToolCall(
                maybeNull("call-" + random.nextInt(1000)),
                maybeNull(random.nextBoolean() ? "function" : "custom"),
                maybeNull("tool_" + random.nextInt(10)),
                maybeNull(pick(ARGUMENTS)));
    }

    private ToolResponseMessage.ToolResponse toolResponse() {
        return new ToolResponseMessage.ToolResponse(
                maybeNull("call-" + random.nextInt(1000)), maybeNull("tool_" + random.nextInt(10)), maybeNull(text()));
    }

    private List<Media> media() {
        return list(random.nextInt(3) == 0 ? 3 : 0, this::oneMedia);
    }

    private Media oneMedia() {
        Media.Builder media = Media.builder().mimeType(MimeType.valueOf(pick(MIME_TYPES)));
        switch (random.nextInt(3)) {
            case 0 -> {
                byte[] bytes = new byte[random.nextInt(64)];
                random.nextBytes(bytes);
                media.data(bytes);
            }
            case 1 -> media.data(URI.create("https://example.com/files/" + random.nextInt(100) + "?q=a%20b"));
            default -> media.data(url("https://example.com/img/" + random.nextInt(100) + ".png"));
        }
        if (random.nextBoolean()) {
            media.id("media-id-" + random.nextInt(100));
        }
        if (random.nextBoolean()) {
            media.name("file " + random.nextInt(100) + ".bin");
        }
        return media.build();
    }

    private Map<String, Object> metadata() {
        Map<String, Object> metadata = new HashMap<>();
        int size = random.nextInt(4);
        for (int i = 0; i < size; i++) {
            metadata.put("key-" + i + pick(TEXTS), value(2));
        }
        return metadata;
    }

    private Object value(int depth) {
        int kinds = depth > 0 ? 15 : 13;
        return switch (random.nextInt(kinds)) {
            case 0 -> null;
            case 1 -> text();
            case 2 -> random.nextBoolean();
            case 3 -> random.nextInt();
            case 4 -> random.nextLong();
            case 5 -> random.nextDouble() * 1e6;
            case 6 -> (float) random.nextGaussian();
            case 7 -> (short) random.nextInt(Short.MAX_VALUE);
            case 8 -> (byte) random.nextInt(128);
            case 9 -> new BigInteger(100, random);
            case 10 -> new BigDecimal(new BigInteger(60, random), random.nextInt(10));
            case 11 -> random.nextBoolean() ? Double.NaN : Double.NEGATIVE_INFINITY;
            case 12 -> random.nextInt(3);
            case 13 -> list(3, () -> value(depth - 1));
            default -> {
                Map<String, Object> map = new HashMap<>();
                for (int i = random.nextInt(3); i > 0; i--) {
                    map.put(text() + i, value(depth - 1));
                }
                yield map;
            }
        };
    }

    private <T> List<T> list(int max, Supplier<T> element) {
        int size = max == 0 ? 0 : random.nextInt(max + 1);
        List<T> list = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            list.add(element.get());
        }
        return list;
    }

    private String text() {
        return pick(TEXTS);
    }

    private String maybeNull(String value) {
        return random.nextInt(8) == 0 ? null : value;
    }

    private String pick(String[] values) {
        return values[random.nextInt(values.length)];
    }

    private static URL url(String url) {
        try {
            return URI.create(url).toURL();
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }
}
