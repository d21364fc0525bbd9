package dev.agentpersistence.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChatMemoryExampleTest {
    @TempDir
    Path dir;

    @Test
    void theExampleTalksRestartsAndRollsTheToolCallBack() throws Exception {
        var printed = new ByteArrayOutputStream();
        var users =
                ChatMemoryExample.run(dir.resolve("chat.db"), new PrintStream(printed, true, StandardCharsets.UTF_8));

        assertThat(users.names).isEmpty();
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains("> hello            : echo: hello")
                .contains("> create user ada  : Done: created ada")
                .contains("users now          : [ada]")
                .contains("> thanks (restart) : echo: thanks")
                .contains("window (max 6)     : 6 messages, from SYSTEM 'You are a helpful assistant.'")
                .contains("history            : 9 messages, 1 tool call")
                .contains("rollback           : 1 tool call undone, users now [], window back to 3 messages");
    }
}
