package dev.agentpersistence.history.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpersistence.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChainCacheTest {

    private static KnownHistory history(int blocks) {
        var messages = new ArrayList<Message>();
        byte[][] chain = new byte[blocks + 1][];
        chain[0] = ChainHasher.origin();
        var hasher = new ChainHasher();
        for (int k = 0; k < blocks; k++) {
            var block = List.of(Message.user("m" + k), Message.assistant("a" + k));
            messages.addAll(block);
            chain[k + 1] = hasher.next(chain[k], block);
        }
        return new KnownHistory(2, messages, chain, Map.of());
    }

    @Test
    void evictsTheLeastRecentlyUsedAgentsBeyondEitherBound() {
        var cache = new ChainCache(3, 100);
        cache.put("a", history(10));
        cache.put("b", history(10));
        cache.put("c", history(10));
        assertThat(cache.get("a")).isNotNull();
        cache.put("d", history(10));
        assertThat(cache.get("b")).as("least recently used beyond 3 agents").isNull();
        assertThat(cache.get("a")).isNotNull();

        cache.put("e", history(20));
        assertThat(cache.get("c")).as("least recently used").isNull();
        assertThat(cache.get("d")).isNotNull();
        assertThat(cache.get("a")).isNotNull();
        assertThat(cache.get("e")).isNotNull();

        cache.put("f", history(60));
        assertThat(cache.get("f"))
                .as("a history larger than the budget is not kept")
                .isNull();
        assertThat(cache.get("a")).isNotNull();

        cache.put("a", history(20));
        cache.put("g", history(5));
        assertThat(cache.get("d")).as("beyond 100 messages").isNull();
        assertThat(cache.get("e")).isNotNull();
        assertThat(cache.get("a")).isNotNull();
        assertThat(cache.get("g")).isNotNull();
    }

    @Test
    void aZeroBudgetKeepsNothing() {
        var cache = new ChainCache(10, 0);
        cache.put("a", history(1));
        assertThat(cache.get("a")).isNull();
    }
}
