package dev.agentpersistence.springai;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.util.List;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.content.Media;
import org.springframework.ai.content.MediaContent;

/**
 * Asserts that Spring AI messages are equal field by field: class, type, text, metadata, tool calls, tool responses,
 * and media (MIME type, id, name, and data by content; {@code Media} has no {@code equals} of its own).
 */
final class SameMessages {
    private SameMessages() {}

    static void assertSame(List<Message> actual, List<Message> expected) {
        assertThat(actual).as("message count").hasSize(expected.size());
        for (int i = 0; i < expected.size(); i++) {
            assertSame(actual.get(i), expected.get(i), "message " + i);
        }
    }

    static void assertSame(Message actual, Message expected, String where) {
        assertThat(actual.getClass()).as(where + " class").isEqualTo(expected.getClass());
        assertThat(actual.getMessageType()).as(where + " type").isEqualTo(expected.getMessageType());
        assertThat(actual.getText()).as(where + " text").isEqualTo(expected.getText());
        assertThat(actual.getMetadata()).as(where + " metadata").isEqualTo(expected.getMetadata());
        if (expected instanceof AssistantMessage assistant) {
            assertThat(((AssistantMessage) actual).getToolCalls())
                    .as(where + " tool calls")
                    .isEqualTo(assistant.getToolCalls());
        }
        if (expected instanceof ToolResponseMessage responses) {
            assertThat(((ToolResponseMessage) actual).getResponses())
                    .as(where + " responses")
                    .isEqualTo(responses.getResponses());
        }
        if (expected instanceof MediaContent withMedia) {
            List<Media> actualMedia = ((MediaContent) actual).getMedia();
            assertThat(actualMedia)
                    .as(where + " media count")
                    .hasSize(withMedia.getMedia().size());
            for (int m = 0; m < actualMedia.size(); m++) {
                assertSameMedia(actualMedia.get(m), withMedia.getMedia().get(m), where + " media " + m);
            }
        }
    }

    private static void assertSameMedia(Media actual, Media expected, String where) {
        assertThat(actual.getMimeType()).as(where + " MIME type").isEqualTo(expected.getMimeType());
        assertThat(actual.getId()).as(where + " id").isEqualTo(expected.getId());
        assertThat(actual.getName()).as(where + " name").isEqualTo(expected.getName());
        Object data = expected.getData();
        assertThat(actual.getData()).as(where + " data type").isInstanceOf(data.getClass());
        if (data instanceof URL url) {
            // URL.equals resolves host names; compare the text.
            assertThat(actual.getData().toString()).as(where + " URL").isEqualTo(url.toString());
        } else {
            assertThat(actual.getData()).as(where + " data").isEqualTo(data);
        }
    }
}
