package dev.agentpersistence.springai;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's runnable example prints what the README shows. */
class ChatMemoryExampleTest {
    @TempDir
    Path dir;

    @Test
    void theExampleRemembersAcrossARestart() throws Exception {
        var bytes = new ByteArrayOutputStream();
        ChatMemoryExample.run(dir.resolve("example.db"), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String output = bytes.toString(StandardCharsets.UTF_8);

        assertThat(output)
                .contains(
                        "< The weather in Paris: sunny, 21°C",
                        "remembered: 8 messages",
                        "< You said: Which city did I ask about?. I see 9 messages, the first: Hello, I am Ana",
                        "stored as agent '@spring-ai/ana', version 9, roles: [USER, ASSISTANT, USER, ASSISTANT, "
                                + "TOOL_CALL, "
                                + "TOOL_RESULT, ASSISTANT, USER, ASSISTANT, USER, ASSISTANT]");
    }
}
