package dev.agentpersistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class RollbackToolRegistryTest {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final List<String> invoked = new ArrayList<>();

    private Tool recording(String name) {
        return Tool.of(name, args -> {
            invoked.add(name + "(" + args.path("name").asText() + ")");
            return JSON.textNode("ok");
        });
    }

    private static ToolCall call(String id, String tool, String name) {
        return new ToolCall(id, tool, JSON.objectNode().put("name", name));
    }

    @Test
    void undoCallsInversesNewestFirstWithTheSameArguments() {
        var registry = RollbackToolRegistry.builder()
                .registerRollback(recording("createUser"), recording("removeUser"))
                .registerRollback(recording("addTag"), recording("dropTag"))
                .build();
        var alex = call("1", "createUser", "Alex");
        var tag = call("2", "addTag", "vip");
        var maria = call("3", "createUser", "Maria");

        var result = registry.undo(List.of(alex, tag, maria));

        assertThat(invoked).containsExactly("removeUser(Maria)", "dropTag(vip)", "removeUser(Alex)");
        assertThat(result.performed())
                .containsExactly(
                        new InverseCall(maria, "removeUser"),
                        new InverseCall(tag, "dropTag"),
                        new InverseCall(alex, "removeUser"));
        assertThat(result.failures()).isEmpty();
        assertThat(result.withoutInverse()).isEmpty();
        assertThat(result.isClean()).isTrue();
        assertThat(result.inverseCallCount()).isEqualTo(3);
    }

    @Test
    void aFailingInverseIsRecordedAndDoesNotStopTheOthers() {
        var boom = new IllegalStateException("user store offline");
        var registry = RollbackToolRegistry.builder()
                .registerRollback("createUser", "removeUser", args -> {
                    if (args.path("name").asText().equals("Daniel")) {
                        throw boom;
                    }
                    invoked.add("removeUser(" + args.path("name").asText() + ")");
                    return null;
                })
                .build();
        var alex = call("1", "createUser", "Alex");
        var daniel = call("2", "createUser", "Daniel");
        var maria = call("3", "createUser", "Maria");

        var result = registry.undo(List.of(alex, daniel, maria));

        assertThat(invoked).containsExactly("removeUser(Maria)", "removeUser(Alex)");
        assertThat(result.performed()).extracting(InverseCall::original).containsExactly(maria, alex);
        assertThat(result.failures()).containsExactly(new InverseFailure(daniel, "removeUser", boom));
        assertThat(result.isClean()).isFalse();
        assertThat(result.inverseCallCount()).isEqualTo(3);
    }

    @Test
    void checkedExceptionsAreRecordedToo() {
        var registry = RollbackToolRegistry.builder()
                .registerRollback("write", "unwrite", args -> {
                    throw new java.io.IOException("disk full");
                })
                .build();
        var result = registry.undo(List.of(call("1", "write", "a")));
        assertThat(result.failures())
                .singleElement()
                .satisfies(f -> assertThat(f.error())
                        .isInstanceOf(java.io.IOException.class)
                        .hasMessage("disk full"));
    }

    @Test
    void anInterruptedInverseKeepsTheInterruptFlagAndTheOthersStillRun() {
        var registry = RollbackToolRegistry.builder()
                .registerRollback("wait", "unwait", args -> {
                    throw new InterruptedException("stop");
                })
                .registerRollback(recording("createUser"), recording("removeUser"))
                .build();
        try {
            var result = registry.undo(List.of(call("1", "createUser", "Alex"), call("2", "wait", "x")));
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
            assertThat(result.failures())
                    .singleElement()
                    .satisfies(f -> assertThat(f.error()).isInstanceOf(InterruptedException.class));
            assertThat(invoked).containsExactly("removeUser(Alex)");
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void callsWithoutInverseAreListedNewestFirst() {
        var registry = RollbackToolRegistry.builder()
                .registerRollback(recording("createUser"), recording("removeUser"))
                .build();
        var search = call("1", "search", "q1");
        var alex = call("2", "createUser", "Alex");
        var weather = call("3", "weather", "Tokyo");

        var result = registry.undo(List.of(search, alex, weather));

        assertThat(result.withoutInverse()).containsExactly(weather, search);
        assertThat(result.performed()).containsExactly(new InverseCall(alex, "removeUser"));
        assertThat(result.isClean()).isTrue();
    }

    @Test
    void emptyRegistryAndEmptyCalls() {
        assertThat(RollbackToolRegistry.EMPTY.undo(List.of())).isEqualTo(UndoResult.EMPTY);
        var only = call("1", "createUser", "Alex");
        var result = RollbackToolRegistry.EMPTY.undo(List.of(only));
        assertThat(result.performed()).isEmpty();
        assertThat(result.withoutInverse()).containsExactly(only);
    }

    @Test
    void nullArgumentsAreRejected() {
        assertThatThrownBy(() -> RollbackToolRegistry.EMPTY.undo(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> RollbackToolRegistry.EMPTY.undo(Arrays.asList(call("1", "a", "b"), null)))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void aToolCanOnlyBeRegisteredOnce() {
        var builder = RollbackToolRegistry.builder().registerRollback(recording("createUser"), recording("removeUser"));
        assertThatThrownBy(() -> builder.registerRollback(recording("createUser"), recording("deleteUser")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("createUser")
                .hasMessageContaining("removeUser")
                .hasMessageContaining("deleteUser");
    }

    @Test
    void lookupAndDescription() {
        var inverse = recording("removeUser");
        var registry = RollbackToolRegistry.builder()
                .registerRollback(recording("createUser"), inverse)
                .build();
        assertThat(registry.inverseOf("createUser")).containsSame(inverse);
        assertThat(registry.inverseOf("other")).isEmpty();
        assertThat(registry.hasInverse("createUser")).isTrue();
        assertThat(registry.inverses()).containsOnlyKeys("createUser");
        assertThat(registry).hasToString("RollbackToolRegistry[createUser -> removeUser]");
    }

    @Test
    void resultListsAreImmutableCopies() {
        var performed = new ArrayList<InverseCall>();
        var result = new UndoResult(performed, null, null);
        performed.add(new InverseCall(call("1", "a", "b"), "c"));
        assertThat(result.performed()).isEmpty();
        assertThat(result.failures()).isEmpty();
        assertThatThrownBy(() -> result.performed().add(null)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void keyedInversesReceiveTheKeyOfTheCallTheyUndoAndPlainInversesTheArgumentsOnly() {
        var seen = new ArrayList<String>();
        var registry = RollbackToolRegistry.builder()
                .registerRollback("book", KeyedTool.of("unbook", true, (args, key) -> {
                    seen.add("unbook " + args.path("name").asText() + " " + key);
                    return null;
                }))
                .registerRollback("note", "unnote", args -> {
                    seen.add("unnote " + args.path("name").asText());
                    return null;
                })
                .build();
        var first = call("1", "book", "a");
        var second = call("2", "note", "b");
        var third = call("3", "book", "c");

        var result = registry.undo(List.of(first, second, third), c -> "key-" + c.id());

        assertThat(seen).containsExactly("unbook c key-3", "unnote b", "unbook a key-1");
        assertThat(result.performed()).hasSize(3);
        seen.clear();
        registry.undo(List.of(first));
        assertThat(seen).containsExactly("unbook a 1");
    }
}
