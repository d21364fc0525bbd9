package dev.agentpersistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.ContentPart.MediaKind;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MessageTest {

    @Test
    void aMessageHasAnIdOnlyWhenOneIsGiven() {
        assertThat(Message.user("same text").id()).isNull();
        assertThat(Message.user("same text")).isEqualTo(Message.user("same text"));
        assertThat(Message.user("same text")).hasSameHashCodeAs(Message.user("same text"));
        var ids = new HashSet<String>();
        for (int i = 0; i < 1000; i++) {
            ids.add(Message.newId());
        }
        assertThat(ids).hasSize(1000);
        assertThat(Message.user("x").withId("mine").id()).isEqualTo("mine");
        assertThat(new Message("given", Message.Role.USER, "x", List.of(), null, Map.of()).id())
                .isEqualTo("given");
    }

    @Test
    void anIdDerivedOnReadingIsNotPartOfTheIdentity() {
        Message derived = Message.user("hi").withId("v2-00000003" + "0123456789abcdef");
        assertThat(derived.hasDerivedId()).isTrue();
        assertThat(derived).isEqualTo(Message.user("hi")).hasSameHashCodeAs(Message.user("hi"));
        assertThat(derived).isNotEqualTo(Message.user("hi").withId("given"));
        assertThat(Message.user("hi").withId("given").hasDerivedId()).isFalse();
    }

    @Test
    void copiesKeepTheId() {
        Message message = Message.assistant("done");
        assertThat(message.withMetadata("k", "v").id()).isEqualTo(message.id());
        assertThat(message.withParts(List.of(ContentPart.text("done"))).id()).isEqualTo(message.id());
    }

    @Test
    void sameContentIgnoresOnlyTheId() {
        Message a = Message.user("hi").withId("a");
        assertThat(a).isNotEqualTo(Message.user("hi").withId("b"));
        assertThat(a).isNotEqualTo(Message.user("hi"));
        assertThat(a.sameContentAs(Message.user("hi"))).isTrue();
        assertThat(a.sameContentAs(Message.user("ho"))).isFalse();
        assertThat(a.sameContentAs(a.withMetadata("k", "v"))).isFalse();
        assertThat(a.sameContentAs(a.withParts(List.of(ContentPart.text("hi")))))
                .isFalse();
        assertThat(a.sameContentAs(null)).isFalse();
    }

    @Test
    void unusableIdsAreRefused() {
        assertThatThrownBy(() -> Message.user("x").withId(""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 to 256");
        assertThatThrownBy(() -> Message.user("x").withId("x".repeat(257)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("257");
    }

    @Test
    void aUserMessageOfPartsHasTheTextOfItsTextParts() {
        var message = Message.user(List.of(
                ContentPart.text("look"),
                ContentPart.url(MediaKind.IMAGE, "https://example.com/a.png", "image/png"),
                ContentPart.text("closely")));
        assertThat(message.content()).isEqualTo("look\nclosely");
        assertThat(message.parts()).hasSize(3);
        assertThatThrownBy(() -> message.parts().add(ContentPart.text("more")))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void mediaBytesAreCopiedAndComparedByValue() {
        byte[] bytes = {1, 2, 3};
        var media = ContentPart.bytes(MediaKind.AUDIO, bytes, "audio/wav");
        bytes[0] = 9;
        assertThat(media.data()).containsExactly(1, 2, 3);
        media.data()[1] = 9;
        assertThat(media.data()).containsExactly(1, 2, 3);
        assertThat(media)
                .isEqualTo(ContentPart.bytes(MediaKind.AUDIO, new byte[] {1, 2, 3}, "audio/wav"))
                .hasSameHashCodeAs(ContentPart.bytes(MediaKind.AUDIO, new byte[] {1, 2, 3}, "audio/wav"));
        assertThat(media).isNotEqualTo(ContentPart.bytes(MediaKind.VIDEO, new byte[] {1, 2, 3}, "audio/wav"));
        assertThat(media.size()).isEqualTo(3);
        assertThat(media.toString()).contains("3 bytes").doesNotContain("[B@");
    }

    @Test
    void aMediaPartNeedsExactlyOneSourceAndAMimeTypeForBytes() {
        assertThatThrownBy(() -> new ContentPart.Media(MediaKind.FILE, "text/plain", null, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exactly one of url and data");
        assertThatThrownBy(() -> new ContentPart.Media(MediaKind.FILE, "text/plain", "https://x", new byte[1], null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exactly one of url and data");
        assertThatThrownBy(() -> new ContentPart.Media(MediaKind.FILE, null, null, new byte[1], null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("MIME type");
        assertThat(ContentPart.url(MediaKind.VIDEO, "https://example.com/v.mp4", null)
                        .mimeType())
                .isNull();
    }

    @Test
    void frameworkArgumentTextBecomesJsonAndTextThatIsNotJsonStaysText() {
        assertThat(ToolCall.argumentsOf("{\"q\": 1}").get("q").intValue()).isEqualTo(1);
        assertThat(ToolCall.argumentsOf("[1,2]").isArray()).isTrue();
        assertThat(ToolCall.argumentsOf("not json").textValue()).isEqualTo("not json");
        assertThat(ToolCall.argumentsOf("").textValue())
                .as("empty text is not a missing node")
                .isEqualTo("");
        assertThat(ToolCall.argumentsOf("{\"open\":").textValue()).isEqualTo("{\"open\":");
    }

    @Test
    void onlyCanonicalBase64IsTakenAsBytes() {
        assertThat(ContentPart.canonicalBase64("aGk=")).containsExactly('h', 'i');
        assertThat(ContentPart.canonicalBase64("aGk")).as("unpadded").isNull();
        assertThat(ContentPart.canonicalBase64("a G k=")).isNull();
        assertThat(ContentPart.canonicalBase64(null)).isNull();
    }

    @Test
    void theTextOfPartsJoinsTheTextPartsByLines() {
        assertThat(Message.textOf(List.of(
                        ContentPart.text("a"),
                        ContentPart.url(MediaKind.IMAGE, "https://x/y.png", null),
                        ContentPart.text("b"))))
                .isEqualTo("a\nb");
        assertThat(Message.textOf(List.of())).isEmpty();
    }
}
