package dev.agentpersistence.benchmarks;

import dev.agentpersistence.benchmarks.backend.BenchSettings;
import dev.agentpersistence.benchmarks.raw.RawS3Store;
import java.util.ArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;

/**
 * The S3 server itself: one {@code ListObjectsV2} with {@code MaxKeys=1} under a prefix holding {@code keys} objects,
 * through the SDK client. This is the call the S3 provider makes to find the latest checkpoint, so it shows how much of
 * "latest with 10,000 checkpoints" is the server's listing.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class S3ListingBenchmarks {
    @Param({"10", "10000"})
    public int keys;

    private S3Client client;
    private String bucket;
    private String prefix;

    @Setup(Level.Trial)
    public void load() throws Exception {
        BenchSettings settings = BenchSettings.fromSystemProperties();
        client = RawS3Store.client(
                settings.requireS3Endpoint(), BenchSettings.S3_ACCESS_KEY, BenchSettings.S3_SECRET_KEY);
        bucket = settings.bucket();
        prefix = "listing/" + keys + "/";
        ListObjectsV2Response existing =
                client.listObjectsV2(b -> b.bucket(bucket).prefix(prefix).maxKeys(1000));
        if (existing.keyCount() > 0) {
            return; // loaded by an earlier fork of this run
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            var futures = new ArrayList<Future<?>>();
            for (int t = 0; t < 4; t++) {
                int first = t;
                futures.add(pool.submit(() -> {
                    for (int i = first; i < keys; i += 4) {
                        String key = prefix + String.format("%019d", Long.MAX_VALUE - i);
                        client.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(new byte[1]));
                    }
                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        client.close();
    }

    @Benchmark
    public ListObjectsV2Response listNewest() {
        return client.listObjectsV2(b -> b.bucket(bucket).prefix(prefix).maxKeys(1));
    }
}
