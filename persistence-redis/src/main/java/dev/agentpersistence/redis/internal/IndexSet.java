package dev.agentpersistence.redis.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * A Redis set of agent ids that names the agents owning some key (checkpoints, history segments). Entries can go stale
 * (a crash between writes, a key that expired), so reading checks each member's key, in pipelined pages, and hands the
 * stale ones to the caller to remove.
 */
final class IndexSet {
    private static final int PAGE = 1000;

    private IndexSet() {}

    /**
     * The members of {@code index} whose key ({@code keyOf}) exists, sorted; every other member is passed to
     * {@code forgetStale}.
     */
    static List<String> liveMembers(
            UnifiedJedis client, byte[] index, Function<String, byte[]> keyOf, Consumer<String> forgetStale) {
        Set<String> candidates = new LinkedHashSet<>();
        byte[] cursor = ScanParams.SCAN_POINTER_START_BINARY;
        do {
            ScanResult<byte[]> page = client.sscan(index, cursor, new ScanParams().count(PAGE));
            for (byte[] member : page.getResult()) {
                candidates.add(new String(member, StandardCharsets.UTF_8));
            }
            cursor = page.getCursorAsBytes();
        } while (!Arrays.equals(cursor, ScanParams.SCAN_POINTER_START_BINARY));
        var live = new ArrayList<String>(candidates.size());
        var ids = new ArrayList<>(candidates);
        for (int from = 0; from < ids.size(); from += PAGE) {
            var chunk = ids.subList(from, Math.min(ids.size(), from + PAGE));
            var exists = new ArrayList<Response<Boolean>>(chunk.size());
            try (var pipeline = client.pipelined()) {
                for (String id : chunk) {
                    exists.add(pipeline.exists(keyOf.apply(id)));
                }
                pipeline.sync();
            }
            for (int i = 0; i < chunk.size(); i++) {
                if (Boolean.TRUE.equals(exists.get(i).get())) {
                    live.add(chunk.get(i));
                } else {
                    forgetStale.accept(chunk.get(i));
                }
            }
        }
        live.sort(null);
        return List.copyOf(live);
    }
}
