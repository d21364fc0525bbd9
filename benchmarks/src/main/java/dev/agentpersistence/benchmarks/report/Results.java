package dev.agentpersistence.benchmarks.report;

import dev.agentpersistence.benchmarks.peer.PeerResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything one run measured, with lookups for the summary.
 *
 * @param ops JMH results
 * @param peers peer workload results
 */
public record Results(List<OpResult> ops, List<PeerResult> peers) {

    /** The result of {@code benchmark} with these parameters, if it ran. */
    public Optional<OpResult> op(String benchmark, Map<String, String> params) {
        return ops.stream().filter(r -> r.is(benchmark, params)).findFirst();
    }

    /** Mean microseconds of {@code benchmark} with these parameters, or NaN. */
    public double micros(String benchmark, Map<String, String> params) {
        return op(benchmark, params).map(OpResult::micros).orElse(Double.NaN);
    }

    /** The peer result of {@code store}, if it ran. */
    public Optional<PeerResult> peer(String store) {
        return peers.stream().filter(p -> p.store().equals(store)).findFirst();
    }
}
