package dev.agentpersistence.benchmarks.report;

import static dev.agentpersistence.benchmarks.report.Format.bytes;
import static dev.agentpersistence.benchmarks.report.Format.micros;
import static dev.agentpersistence.benchmarks.report.Format.millis;
import static dev.agentpersistence.benchmarks.report.Format.ratio;
import static dev.agentpersistence.benchmarks.report.Format.verdict;

import dev.agentpersistence.benchmarks.backend.Backend;
import dev.agentpersistence.benchmarks.peer.PeerResult;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Turns one run's results into the Markdown tables of the README: operation times, the ratio to each backend's raw
 * driver, the cost of a large store, and the peer workload with its targets. Every ratio compares numbers from the same
 * run.
 */
public final class Summary {
    private static final String PROVIDER = "ProviderBenchmarks.";
    private static final String RAW = "RawBenchmarks.";
    private static final String CODEC = "CodecBenchmarks.";
    private static final String LISTING = "S3ListingBenchmarks.";

    private final Results results;

    public Summary(Results results) {
        this.results = results;
    }

    /** The tables, each under a third-level heading. */
    public String tables() {
        var out = new StringBuilder();
        operations(out);
        overhead(out);
        scaling(out);
        peers(out);
        peerTargets(out);
        return out.toString();
    }

    private void operations(StringBuilder out) {
        List<String> shapes = results.ops().stream()
                .filter(r -> r.benchmark().startsWith(PROVIDER))
                .map(r -> r.params().get("shape"))
                .distinct()
                .toList();
        for (String shape : shapes) {
            var table = new MarkdownTable(
                    "backend", "save", "latest", "get by id", "list 100", "alloc / save", "alloc / latest");
            for (String history : List.of("plain", "incremental")) {
                for (Backend backend : Backend.values()) {
                    Map<String, String> p = Map.of("backend", backend.id(), "shape", shape, "history", history);
                    if (Stream.of("save", "latest", "getById", "list100")
                            .allMatch(m -> results.op(PROVIDER + m, p).isEmpty())) {
                        continue;
                    }
                    table.row(
                            backend.id() + (history.equals("plain") ? "" : " + incremental"),
                            op("save", p),
                            op("latest", p),
                            op("getById", p),
                            op("list100", p),
                            alloc("save", p),
                            alloc("latest", p));
                }
            }
            String[] size = shape.split("x");
            out.append("### Operations: ")
                    .append(size[0])
                    .append(" checkpoints × ")
                    .append(size[1])
                    .append(" messages (mean per call ± 99.9% error)\n\n");
            table.appendTo(out);
        }
    }

    private void overhead(StringBuilder out) {
        var table = new MarkdownTable(
                "backend",
                "messages",
                "raw write",
                "our save",
                "save ratio",
                "≤ 1.25×",
                "raw read",
                "our latest",
                "latest ratio",
                "≤ 1.25×",
                "save ratio without the codec");
        for (Backend backend : Backend.values()) {
            for (String messages : List.of("10", "1000")) {
                Map<String, String> rawParams = Map.of("backend", backend.id(), "messages", messages);
                Map<String, String> ours =
                        Map.of("backend", backend.id(), "shape", "10x" + messages, "history", "plain");
                double rawWrite = results.micros(RAW + "write", rawParams);
                double rawRead = results.micros(RAW + "read", rawParams);
                if (Double.isNaN(rawWrite) && Double.isNaN(rawRead)) {
                    continue;
                }
                double save = results.micros(PROVIDER + "save", ours);
                double latest = results.micros(PROVIDER + "latest", ours);
                var stored = Map.of("messages", messages, "layers", "stored");
                double encode = results.micros(CODEC + "encode", stored);
                boolean judged = backend != Backend.INMEMORY;
                table.row(
                        backend.id(),
                        messages,
                        micros(rawWrite),
                        micros(save),
                        ratio(save / rawWrite),
                        judged ? verdict(save / rawWrite, 1.25, true) : "n/a",
                        micros(rawRead),
                        micros(latest),
                        ratio(latest / rawRead),
                        judged ? verdict(latest / rawRead, 1.25, true) : "n/a",
                        judged ? ratio((save - encode) / rawWrite) : "n/a");
            }
        }
        if (table.isEmpty()) {
            return;
        }
        out.append("### Framework overhead against the raw driver (same bytes, one write or read)\n\n");
        table.appendTo(out);
        out.append(
                "`inmemory` has no driver underneath: its raw column is a map of the encoded bytes, a reference point"
                        + " only; the in-memory provider is held against the in-memory peers instead. Latest reads "
                        + "an agent"
                        + " nothing writes to: the shell recognises the stored record it decoded last and does not "
                        + "decode it"
                        + " again, so the latest ratio includes no codec to take out.\n\n");
        var codec = new MarkdownTable(
                "messages", "JSON encode", "JSON decode", "JSON size", "stored encode", "stored decode", "stored size");
        for (String messages : List.of("10", "1000")) {
            var json = Map.of("messages", messages, "layers", "json");
            var stored = Map.of("messages", messages, "layers", "stored");
            results.op(CODEC + "encode", json)
                    .ifPresent(encode -> codec.row(
                            messages,
                            micros(encode.micros()),
                            micros(results.micros(CODEC + "decode", json)),
                            bytes(DocumentSizes.json(Integer.parseInt(messages))),
                            micros(results.micros(CODEC + "encode", stored)),
                            micros(results.micros(CODEC + "decode", stored)),
                            bytes(DocumentSizes.stored(Integer.parseInt(messages)))));
        }
        if (!codec.isEmpty()) {
            out.append("The codec alone (part of every save and read except in-memory):\n\n");
            codec.appendTo(out);
        }
    }

    private void scaling(StringBuilder out) {
        var table = new MarkdownTable(
                "backend",
                "latest, 10 checkpoints",
                "latest, 10,000 checkpoints",
                "ratio",
                "≤ 1.5×",
                "list 100, 10 → 10,000",
                "get by id, 10 → 10,000");
        for (Backend backend : Backend.values()) {
            Map<String, String> small = Map.of("backend", backend.id(), "shape", "10x10", "history", "plain");
            Map<String, String> large = Map.of("backend", backend.id(), "shape", "10000x10", "history", "plain");
            double latestSmall = results.micros(PROVIDER + "latest", small);
            double latestLarge = results.micros(PROVIDER + "latest", large);
            if (Double.isNaN(latestSmall) && Double.isNaN(latestLarge)) {
                continue;
            }
            table.row(
                    backend.id(),
                    micros(latestSmall),
                    micros(latestLarge),
                    ratio(latestLarge / latestSmall),
                    verdict(latestLarge / latestSmall, 1.5, true),
                    micros(results.micros(PROVIDER + "list100", small)) + " → "
                            + micros(results.micros(PROVIDER + "list100", large)),
                    micros(results.micros(PROVIDER + "getById", small)) + " → "
                            + micros(results.micros(PROVIDER + "getById", large)));
        }
        if (!table.isEmpty()) {
            out.append("### Latest with 10,000 checkpoints against 10 (10-message histories)\n\n");
            table.appendTo(out);
        }
        double listSmall = results.micros(LISTING + "listNewest", Map.of("keys", "10"));
        double listLarge = results.micros(LISTING + "listNewest", Map.of("keys", "10000"));
        if (!Double.isNaN(listSmall) || !Double.isNaN(listLarge)) {
            out.append("The S3 server alone (raw `ListObjectsV2`, `MaxKeys=1`, the listing behind the S3 "
                            + "provider's latest): ")
                    .append(micros(listSmall))
                    .append(" under a prefix of 10 keys, ")
                    .append(micros(listLarge))
                    .append(" under one of 10,000 (")
                    .append(ratio(listLarge / listSmall))
                    .append(").\n\n");
        }
    }

    private void peers(StringBuilder out) {
        if (results.peers().isEmpty()) {
            return;
        }
        PeerResult first = results.peers().get(0);
        var table = new MarkdownTable(
                "store",
                first.steps() + " saves",
                "first 20 (mean)",
                "last 20 (mean)",
                "last/first",
                "latest (per call)",
                "list all",
                "bytes stored",
                "how it saves");
        for (PeerResult peer : results.peers()) {
            table.row(
                    peer.store(),
                    millis(peer.totalSaveMillis()),
                    millis(peer.firstMillis(20)),
                    millis(peer.lastMillis(20)),
                    ratio(peer.growth()),
                    micros(peer.latestMicros()),
                    millis(peer.listMillis()),
                    bytes(peer.bytesStored()),
                    peer.note());
        }
        out.append("### Peer workload: one agent, ")
                .append(first.steps())
                .append(" steps, +2 messages of 1 KiB per step, a checkpoint after each; then ")
                .append(first.latestCalls())
                .append(" × latest and one list\n\n");
        table.appendTo(out);
    }

    private void peerTargets(StringBuilder out) {
        var table = new MarkdownTable("target", "measured", "verdict");
        var koogFile = results.peer("koog-file");
        for (PeerResult ours : results.peers()) {
            if (!ours.store().startsWith("ours-file")) {
                continue;
            }
            String name = "`" + ours.store() + "`";
            koogFile.ifPresent(koog -> {
                double faster = koog.totalSaveMillis() / ours.totalSaveMillis();
                table.row(
                        name + ": " + ours.steps() + " saves ≥ 2× faster than Koog's file provider",
                        ratio(faster) + " (" + millis(ours.totalSaveMillis()) + " vs " + millis(koog.totalSaveMillis())
                                + ")",
                        verdict(faster, 2, false));
            });
            table.row(
                    name + ": flat save time (last-20 / first-20 ≤ 1.5)",
                    ratio(ours.growth()),
                    verdict(ours.growth(), 1.5, true));
            table.row(name + ": latest ≤ 1 ms", micros(ours.latestMicros()), verdict(ours.latestMicros(), 1000, true));
            koogFile.ifPresent(koog -> {
                double faster = koog.latestMicros() / ours.latestMicros();
                table.row(
                        name + ": latest ≥ 100× faster than Koog's file provider",
                        ratio(faster),
                        verdict(faster, 100, false));
                double fewer = (double) koog.bytesStored() / ours.bytesStored();
                table.row(
                        name + ": ≥ 25× fewer bytes than Koog's file provider",
                        ratio(fewer) + " (" + bytes(ours.bytesStored()) + " vs " + bytes(koog.bytesStored()) + ")",
                        verdict(fewer, 25, false));
            });
        }
        for (PeerResult ours : results.peers()) {
            if (!ours.store().startsWith("ours-inmemory")) {
                continue;
            }
            for (String peerId : List.of("koog-inmemory", "langgraph4j-memory")) {
                results.peer(peerId).ifPresent(peer -> {
                    double saves = ours.totalSaveMillis() / peer.totalSaveMillis();
                    double latest = ours.latestMicros() / peer.latestMicros();
                    table.row(
                            "`" + ours.store() + "` within 2× of `" + peerId + "`: saves / latest",
                            ratio(saves) + " / " + ratio(latest),
                            verdict(saves, 2, true) + " / " + verdict(latest, 2, true));
                });
            }
        }
        if (!table.isEmpty()) {
            out.append("### Peer workload targets\n\n");
            table.appendTo(out);
        }
    }

    private String op(String method, Map<String, String> params) {
        return results.op(PROVIDER + method, params)
                .map(r -> micros(r.micros()) + (Double.isNaN(r.error()) ? "" : " ± " + micros(r.error())))
                .orElse("–");
    }

    private String alloc(String method, Map<String, String> params) {
        return results.op(PROVIDER + method, params)
                .map(r -> bytes(r.allocBytes()))
                .orElse("–");
    }
}
