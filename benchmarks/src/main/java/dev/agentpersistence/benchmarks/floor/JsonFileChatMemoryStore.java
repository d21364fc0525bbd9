package dev.agentpersistence.benchmarks.floor;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageDeserializer;
import dev.langchain4j.data.message.ChatMessageSerializer;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * LangChain4j's recipe for a persistent chat memory, with a file as the store: each memory id is one JSON file holding
 * the memory's current list ({@code ChatMessageSerializer.messagesToJson}), rewritten on every update (no fsync) and
 * read with {@code ChatMessageDeserializer.messagesFromJson}. It keeps only what the memory holds (a window's
 * messages), no history and no checkpoints.
 */
final class JsonFileChatMemoryStore implements ChatMemoryStore {
    private final Path directory;

    JsonFileChatMemoryStore(Path directory) {
        this.directory = Objects.requireNonNull(directory, "directory");
    }

    @Override
    public List<ChatMessage> getMessages(Object memoryId) {
        Path file = file(memoryId);
        try {
            return Files.exists(file)
                    ? new ArrayList<>(ChatMessageDeserializer.messagesFromJson(Files.readString(file)))
                    : new ArrayList<>();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
    }

    @Override
    public void updateMessages(Object memoryId, List<ChatMessage> messages) {
        Path file = file(memoryId);
        try {
            Files.createDirectories(directory);
            Files.writeString(file, ChatMessageSerializer.messagesToJson(messages));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
    }

    @Override
    public void deleteMessages(Object memoryId) {
        Path file = file(memoryId);
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + file, e);
        }
    }

    private Path file(Object memoryId) {
        return directory.resolve(Objects.requireNonNull(memoryId, "memoryId") + ".json");
    }
}
