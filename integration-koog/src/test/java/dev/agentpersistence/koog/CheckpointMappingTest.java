package dev.agentpersistence.koog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.koog.agents.core.planner.PlannerAgentExecutionPoint;
import ai.koog.agents.snapshot.feature.AgentCheckpointData;
import ai.koog.agents.snapshot.feature.AgentCheckpointDataKt;
import ai.koog.agents.snapshot.feature.GraphCheckpointProperties;
import ai.koog.agents.snapshot.feature.PlannerCheckpointProperties;
import ai.koog.prompt.message.AttachmentContent;
import ai.koog.prompt.message.AttachmentSource;
import ai.koog.prompt.message.Message;
import ai.koog.prompt.message.MessagePart;
import ai.koog.prompt.message.RequestMetaInfo;
import ai.koog.prompt.message.ResponseMetaInfo;
import ai.koog.prompt.params.LLMParams;
import ai.koog.serialization.JSONElement;
import ai.koog.serialization.JSONObject;
import ai.koog.serialization.JSONPrimitive;
import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.ContentPart;
import dev.agentpersistence.CorruptCheckpointException;
import dev.agentpersistence.inmemory.InMemoryStorage;
import dev.agentpersistence.storage.StorageShell;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Koog's checkpoint data round-trips exactly through our records, and reads as documented. */
class CheckpointMappingTest {
    static final kotlin.time.Instant T0 = kotlin.time.Instant.Companion.fromEpochSeconds(1_760_000_000L, 123_456_789);

    private final StorageShell provider = InMemoryStorage.builder().build();
    private final KoogCheckpointStorage storage = KoogCheckpointStorage.of(provider);

    @AfterEach
    void close() {
        provider.close();
    }

    /** One message of every kind Koog has: system, user with media, assistant with reasoning, tool call and result. */
    static List<Message> everyKindOfMessage() {
        var request = new RequestMetaInfo(T0);
        byte[] png = "not really a png".getBytes(StandardCharsets.UTF_8);
        return List.of(
                new Message.System("You file expense reports.", request),
                new Message.User(
                        List.of(
                                new MessagePart.Text("What is on this receipt?"),
                                new MessagePart.Attachment(
                                        new AttachmentSource.Image(
                                                new AttachmentContent.Binary.Bytes(png),
                                                "png",
                                                "image/png",
                                                "receipt.png"),
                                        null),
                                new MessagePart.Attachment(
                                        new AttachmentSource.File(
                                                new AttachmentContent.URL("https://example.com/terms.pdf"),
                                                "pdf",
                                                "application/pdf",
                                                null),
                                        null),
                                new MessagePart.Attachment(
                                        new AttachmentSource.File(
                                                new AttachmentContent.Binary.Base64("bm90IGNhbm9uaWNhbA"),
                                                "txt",
                                                "text/plain",
                                                null),
                                        null)),
                        request,
                        "user-message-7"),
                new Message.Assistant(
                        List.of(
                                new MessagePart.Reasoning(
                                        "The total is printed at the bottom.", null, null, null, null),
                                new MessagePart.Text("It is a taxi receipt.")),
                        new ResponseMetaInfo(T0, 30, 20, 10, "scripted-model", null),
                        "stop",
                        null,
                        null),
                new Message.Assistant(
                        new MessagePart.Tool.Call("call-1", "fileExpense", "{\"amount\": 42.5, \"currency\":\"EUR\"}"),
                        new ResponseMetaInfo(T0)),
                new Message.User(
                        new MessagePart.Tool.Result("call-1", "fileExpense", "filed as #17", false, null), request),
                new Message.Assistant("Filed it.", new ResponseMetaInfo(T0)));
    }

    static AgentCheckpointData checkpoint(String id, long version, List<Message> history) {
        var storageJson = new LinkedHashMap<String, JSONElement>();
        storageJson.put("expenses", JSONPrimitive.of(1));
        return new AgentCheckpointData(
                id,
                T0,
                history,
                new LLMParams(0.2, null, null, null, null, null, null, Map.of()),
                version,
                new GraphCheckpointProperties(
                        "expenses/agent/file",
                        new JSONObject(Map.of("filed", JSONPrimitive.of(true), "id", JSONPrimitive.of("#17")))),
                null,
                ScriptedExecutor.MODEL,
                List.of("fileExpense"),
                new JSONObject(storageJson),
                6);
    }

    private static String koogJson(AgentCheckpointData data) {
        return KoogJson.checkpoint(data).toString();
    }

    @Test
    void everyFieldOfAKoogCheckpointRoundTrips() throws Exception {
        AgentCheckpointData saved = checkpoint("cp-1", 0, everyKindOfMessage());
        storage.saveCheckpointAsync("expenses", saved).get();

        AgentCheckpointData read =
                storage.getLatestCheckpointAsync("expenses", null).get();

        assertThat(koogJson(read)).isEqualTo(koogJson(saved));
        // Koog compares byte arrays by identity, so equality holds message by message, apart from the bytes
        assertThat(read.getMessageHistory()).hasSameSizeAs(saved.getMessageHistory());
        for (int i = 0; i < saved.getMessageHistory().size(); i++) {
            if (i != 1) {
                assertThat(read.getMessageHistory().get(i))
                        .isEqualTo(saved.getMessageHistory().get(i));
            }
        }
        assertThat(read.getGraphProperties()).isEqualTo(saved.getGraphProperties());
        assertThat(read.getLlmParams()).isEqualTo(saved.getLlmParams());
        assertThat(read.getLlmModel()).isEqualTo(saved.getLlmModel());
        assertThat(read.getStorage()).isEqualTo(saved.getStorage());
        assertThat(read.getCreatedAt()).isEqualTo(saved.getCreatedAt());
        assertThat(List.of(read.getCheckpointId(), read.getVersion(), read.getAgentIterations(), read.getTools()))
                .containsExactly("cp-1", 0L, 6, List.of("fileExpense"));
    }

    @Test
    void ourRecordSaysWhatItCan() throws Exception {
        storage.saveCheckpointAsync("expenses", checkpoint("cp-1", 0, everyKindOfMessage()))
                .get();

        AgentCheckpoint record = provider.getLatestCheckpoint("@koog/expenses").orElseThrow();

        assertThat(record.checkpointId()).isEqualTo("cp-1");
        assertThat(record.createdAt()).isEqualTo(Instant.ofEpochSecond(1_760_000_000L, 123_456_789));
        assertThat(record.nodeId()).isEqualTo("expenses/agent/file");
        assertThat(record.lastInput()).isEqualTo(KoogJson.object("{\"filed\":true,\"id\":\"#17\"}"));
        assertThat(record.metadata())
                .containsEntry("koog.sessionId", "expenses")
                .containsEntry("koog.kind", "graph");
        var messages = record.messageHistory();
        assertThat(messages)
                .extracting(dev.agentpersistence.Message::role)
                .containsExactly(
                        dev.agentpersistence.Message.Role.SYSTEM, dev.agentpersistence.Message.Role.USER,
                        dev.agentpersistence.Message.Role.ASSISTANT, dev.agentpersistence.Message.Role.TOOL_CALL,
                        dev.agentpersistence.Message.Role.TOOL_RESULT, dev.agentpersistence.Message.Role.ASSISTANT);
        assertThat(messages.get(0).content()).isEqualTo("You file expense reports.");
        assertThat(messages.get(1).id()).isEqualTo("user-message-7");
        assertThat(messages.get(1).parts())
                .containsExactly(
                        ContentPart.text("What is on this receipt?"),
                        ContentPart.bytes(
                                        ContentPart.MediaKind.IMAGE,
                                        "not really a png".getBytes(StandardCharsets.UTF_8),
                                        "image/png")
                                .withName("receipt.png"),
                        ContentPart.url(
                                ContentPart.MediaKind.FILE, "https://example.com/terms.pdf", "application/pdf"));
        assertThat(messages.get(2).content()).isEqualTo("It is a taxi receipt.");
        assertThat(messages.get(3).toolCall().toolName()).isEqualTo("fileExpense");
        assertThat(messages.get(3).toolCall().arguments().get("amount").asDouble())
                .isEqualTo(42.5);
        assertThat(messages.get(4).content()).isEqualTo("filed as #17");
        assertThat(messages.get(4).metadata()).containsEntry(dev.agentpersistence.Message.TOOL_CALL_ID, "call-1");
        // the text and media our record holds are not stored a second time in Koog's JSON
        assertThat(messages.get(1).metadata().get(KoogMessages.KOOG_MESSAGE))
                .doesNotContain("What is on this receipt?", "terms.pdf", "bm90IHJlYWxseSBhIHBuZw")
                .contains("bm90IGNhbm9uaWNhbA"); // a non-canonical Base64 text stays in Koog's form, exactly
    }

    @Test
    void messagesWithoutKoogIdsKeepTheSameIdInEveryCheckpoint() throws Exception {
        List<Message> history = everyKindOfMessage();
        storage.saveCheckpointAsync("ids", checkpoint("cp-1", 0, history.subList(0, 3)))
                .get();
        storage.saveCheckpointAsync("ids", checkpoint("cp-2", 1, history)).get();

        var checkpoints = provider.getCheckpoints("@koog/ids");

        var first = checkpoints.get(0).messageHistory();
        var second = checkpoints.get(1).messageHistory();
        assertThat(second.subList(0, 3))
                .extracting(dev.agentpersistence.Message::id)
                .containsExactlyElementsOf(
                        first.stream().map(dev.agentpersistence.Message::id).toList());
        assertThat(second.stream().map(dev.agentpersistence.Message::id).distinct())
                .hasSize(second.size());
    }

    @Test
    void koogsTombstoneIsOurTombstone() throws Exception {
        AgentCheckpointData tombstone = AgentCheckpointDataKt.tombstoneCheckpoint(T0, 4);
        storage.saveCheckpointAsync("done", tombstone).get();

        assertThat(provider.getLatestCheckpoint("@koog/done").orElseThrow().isTombstone())
                .isTrue();
        AgentCheckpointData read =
                storage.getLatestCheckpointAsync("done", null).get();
        assertThat(AgentCheckpointDataKt.isTombstone(read)).isTrue();
        assertThat(read).isEqualTo(tombstone);
    }

    @Test
    void aPlannerCheckpointRoundTripsWithItsStateAndPlan() throws Exception {
        var planner = new PlannerCheckpointProperties(
                new PlannerAgentExecutionPoint.PlanCompletionEvaluated(false),
                new JSONObject(Map.of("budget", JSONPrimitive.of(120))),
                new JSONObject(Map.of("steps", JSONPrimitive.of("collect receipts; file them"))));
        var saved = new AgentCheckpointData(
                "plan-1",
                T0,
                everyKindOfMessage().subList(0, 3),
                null,
                2,
                planner,
                null,
                ScriptedExecutor.MODEL,
                List.of(),
                null,
                3);
        storage.saveCheckpointAsync("planner", saved).get();

        assertThat(provider.getLatestCheckpoint("@koog/planner").orElseThrow().metadata())
                .containsEntry("koog.kind", "planner");
        AgentCheckpointData read =
                storage.getLatestCheckpointAsync("planner", null).get();
        assertThat(read.getPlannerProperties()).isEqualTo(planner);
        assertThat(koogJson(read)).isEqualTo(koogJson(saved));
    }

    @Test
    void koogsFiltersSelectCheckpoints() throws Exception {
        List<Message> history = everyKindOfMessage();
        for (int version = 0; version < 4; version++) {
            storage.saveCheckpointAsync(
                            "filters", checkpoint("cp-" + version, version, history.subList(0, version + 1)))
                    .get();
        }

        assertThat(storage.getCheckpointsAsync("filters", null).get())
                .extracting(AgentCheckpointData::getVersion)
                .containsExactly(0L, 1L, 2L, 3L);
        assertThat(storage.getCheckpointsAsync("filters", data -> data.getVersion() % 2 == 0)
                        .get())
                .extracting(AgentCheckpointData::getCheckpointId)
                .containsExactly("cp-0", "cp-2");
        assertThat(storage.getLatestCheckpointAsync(
                                "filters", data -> data.getMessageHistory().size() < 3)
                        .get()
                        .getCheckpointId())
                .isEqualTo("cp-1");
        assertThat(storage.getLatestCheckpointAsync("filters", data -> false).get())
                .isNull();
        assertThat(storage.getLatestCheckpointAsync("nobody", null).get()).isNull();
        assertThat(storage.deleteSession("filters")).isEqualTo(4);
    }

    @Test
    void aCheckpointNotWrittenByThisModuleIsReportedNotGuessed() {
        provider.saveCheckpoint(
                "@koog/foreign",
                AgentCheckpoint.builder()
                        .checkpointId("f-0")
                        .agentId("@koog/foreign")
                        .version(0)
                        .createdAt(Instant.now())
                        .build());

        assertThatThrownBy(
                        () -> storage.getLatestCheckpointAsync("foreign", null).get())
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(CorruptCheckpointException.class)
                .hasMessageContaining("@koog/foreign")
                .hasMessageContaining("f-0")
                .hasMessageContaining("koog.checkpoint");
    }
}
