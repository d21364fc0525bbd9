package dev.agentpersistence.langgraph4j;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageDeserializer;
import dev.langchain4j.data.message.ChatMessageSerializer;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectOutput;
import java.io.Serializable;
import java.math.BigDecimal;
import java.util.List;
import org.bsc.langgraph4j.serializer.Serializer;
import org.bsc.langgraph4j.serializer.plain_text.jackson.JacksonStateSerializer;
import org.bsc.langgraph4j.serializer.plain_text.jackson.TypeMapper;
import org.bsc.langgraph4j.serializer.std.ObjectStreamStateSerializer;
import org.bsc.langgraph4j.state.AgentState;

/** The state serializers LangGraph4j users configure, and the domain values they put in the state. */
final class StateSerializers {
    private StateSerializers() {}

    /** A domain object as users put it straight into the state: a {@code Serializable} record. */
    record Order(String id, BigDecimal total, List<String> items, Status status) implements Serializable {}

    /** An enum, not JSON-mappable either. */
    enum Status {
        OPEN,
        PAID
    }

    /** A record the graph's Jackson serializer writes with its type name, {@code @type: ticket}. */
    @JsonIgnoreProperties("@type")
    record Ticket(String id, int priority, List<String> tags) {}

    /** LangGraph4j's object-stream serializer with LangChain4j's messages registered, written as LangChain4j's JSON. */
    static ObjectStreamStateSerializer<AgentState> objectStreamWithChatMessages() {
        var serializer = new ObjectStreamStateSerializer<AgentState>(AgentState::new);
        serializer.mapper().register(ChatMessage.class, new ChatMessageStreamSerializer());
        return serializer;
    }

    /**
     * LangGraph4j's Jackson serializer, as users subclass it, knowing {@link Ticket}: written with a {@code @type}
     * property, read back through its {@code TypeMapper}.
     */
    static JacksonStateSerializer<AgentState> jacksonWithTickets() {
        return new TicketJsonSerializer();
    }

    private static final class ChatMessageStreamSerializer implements Serializer<ChatMessage> {
        @Override
        public void write(ChatMessage message, ObjectOutput out) throws IOException {
            Serializer.writeUTF(ChatMessageSerializer.messageToJson(message), out);
        }

        @Override
        public ChatMessage read(ObjectInput in) throws IOException {
            return ChatMessageDeserializer.messageFromJson(Serializer.readUTF(in));
        }
    }

    private static final class TicketJsonSerializer extends JacksonStateSerializer<AgentState> {
        TicketJsonSerializer() {
            super(AgentState::new);
            typeMapper().register(new TypeMapper.Reference<Ticket>("ticket") {});
            objectMapper().registerModule(new SimpleModule().addSerializer(Ticket.class, new TicketWriter()));
        }
    }

    private static final class TicketWriter extends StdSerializer<Ticket> {
        TicketWriter() {
            super(Ticket.class);
        }

        @Override
        public void serialize(Ticket ticket, JsonGenerator json, SerializerProvider provider) throws IOException {
            json.writeStartObject();
            json.writeStringField(TypeMapper.TYPE_PROPERTY, "ticket");
            json.writeStringField("id", ticket.id());
            json.writeNumberField("priority", ticket.priority());
            json.writeArrayFieldStart("tags");
            for (String tag : ticket.tags()) {
                json.writeString(tag);
            }
            json.writeEndArray();
            json.writeEndObject();
        }
    }
}
