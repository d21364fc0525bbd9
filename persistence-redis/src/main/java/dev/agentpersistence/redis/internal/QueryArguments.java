package dev.agentpersistence.redis.internal;

import dev.agentpersistence.CheckpointFilter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The ARGV of {@code query.lua} and {@code latest.lua} for one filter; the layout is documented in the scripts. */
final class QueryArguments {
    private static final byte[] EMPTY = new byte[0];

    private QueryArguments() {}

    /** Whether {@code filter} selects by version alone, so {@code latest.lua} answers a latest query. */
    static boolean versionsOnly(CheckpointFilter filter) {
        return filter.nodeId() == null
                && filter.includeTombstones()
                && filter.createdAfter() == null
                && filter.createdBefore() == null
                && filter.metadata().isEmpty();
    }

    /** The ARGV of {@code latest.lua}. */
    static List<byte[]> latest(CheckpointFilter filter, byte[] maxBody, byte[] maxInline) {
        byte[] upper = filter.maxVersion() == null ? bytes("+") : bytes("[" + IndexValues.version(filter.maxVersion()));
        return List.of(upper, maxBody, maxInline);
    }

    static List<byte[]> of(CheckpointFilter filter, boolean latestOnly, byte[] maxBody, byte[] maxInline) {
        var args = new ArrayList<byte[]>(9 + 2 * filter.metadata().size());
        args.add(filter.maxVersion() == null ? EMPTY : bytes(IndexValues.version(filter.maxVersion())));
        args.add(bytes(latestOnly ? "1" : filter.limit() == null ? "0" : Integer.toString(filter.limit())));
        args.add(filter.createdAfter() == null ? EMPTY : bytes(IndexValues.instantKey(filter.createdAfter())));
        args.add(filter.createdBefore() == null ? EMPTY : bytes(IndexValues.instantKey(filter.createdBefore())));
        args.add(bytes(filter.nodeId() == null ? "0" : "1"));
        args.add(filter.nodeId() == null ? EMPTY : bytes(filter.nodeId()));
        args.add(bytes(filter.includeTombstones() ? "1" : "0"));
        args.add(maxBody);
        args.add(maxInline);
        filter.metadata().forEach((key, value) -> {
            args.add(bytes(key));
            args.add(bytes(value));
        });
        return args;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
