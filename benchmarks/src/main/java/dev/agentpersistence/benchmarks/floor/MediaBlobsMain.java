package dev.agentpersistence.benchmarks.floor;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.CheckpointTooLargeException;
import dev.agentpersistence.ContentPart;
import dev.agentpersistence.Message;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.benchmarks.backend.Backend;
import dev.agentpersistence.benchmarks.backend.BackendDriver;
import dev.agentpersistence.benchmarks.backend.BenchSettings;
import dev.agentpersistence.benchmarks.backend.BenchmarkedForm;
import dev.agentpersistence.benchmarks.history.GrowthOptions;
import dev.agentpersistence.benchmarks.history.GrowthResults;
import dev.agentpersistence.storage.StorageSettings;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Bytes each store holds for a conversation with {@code --copies} copies (default 20) of one image of
 * {@code --image-mib} MiB (default 5): one user message with the image and one assistant reply per step, a checkpoint
 * with the whole history after each step (incremental history, a maximum checkpoint size of 1 GiB). Each backend runs
 * it twice, with every part inline ({@code blob-threshold} 0) and with the default threshold (parts stored once by
 * reference); Redis runs it a third time with an S3 blob store ({@code blob-store}), whose bytes are measured apart.
 * Bytes held are read as the floor benchmark reads them ({@link StorageFloorMain}), after every provider is closed and
 * the store compacted. Run from the benchmark jar:
 *
 * <pre>{@code java -cp benchmarks/target/benchmarks.jar dev.agentpersistence.benchmarks.floor.MediaBlobsMain \
 *     [--copies=20] [--image-mib=5] [--backends=file,sqlite,postgresql,mariadb,redis,s3]}
 * </pre>
 *
 * Writes a Markdown table to {@code benchmarks/target/benchmark-results/media-blobs-<time>.md}.
 */
public final class MediaBlobsMain {
    private static final String AGENT = "media-agent";
    /** Large enough for the inline run, whose records repeat the history's unfinished block with its images. */
    private static final long MAX_SIZE = 1L << 30;

    private MediaBlobsMain() {}

    public static void main(String[] args) throws Exception {
        var numberDefaults = new LinkedHashMap<String, Integer>();
        numberDefaults.put("copies", 20);
        numberDefaults.put("image-mib", 5);
        var options = GrowthOptions.parse(
                args, numberDefaults, List.of("file", "sqlite", "postgresql", "mariadb", "redis", "s3"));
        int copies = options.number("copies");
        byte[] image = new byte[options.number("image-mib") << 20];
        new Random(35).nextBytes(image);
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        var rows = new ArrayList<String>();
        GrowthResults.withNewRun(options.keepData(), settings -> {
            for (var available :
                    GrowthResults.availableDrivers(options.backends(), settings).entrySet()) {
                String id = available.getKey();
                BackendDriver driver = available.getValue();
                Held inline = run(driver, settings, "mediainline", 0, null, image, copies);
                Held byReference = run(
                        driver,
                        settings,
                        "mediablobs",
                        StorageSettings.ofDefaults().blobThreshold(),
                        null,
                        image,
                        copies);
                rows.add(row(id, image.length, copies, inline, byReference.bytes(), byReference.note()));
                System.err.println(rows.get(rows.size() - 1));
                if (id.equals("redis") && options.backends().contains("s3")) {
                    BackendDriver s3Driver = Backend.of("s3").driver();
                    Held redis = run(
                            driver,
                            settings,
                            "mediaredis",
                            StorageSettings.ofDefaults().blobThreshold(),
                            s3Driver.open(settings, "mediablobstore", false, true),
                            image,
                            copies);
                    long bucket = s3Driver.bytesHeld(settings, "mediablobstore");
                    rows.add(row(
                            "redis, blob store s3",
                            image.length,
                            copies,
                            inline,
                            redis.bytes() + bucket,
                            String.format(Locale.ROOT, "Redis %,d + S3 %,d", redis.bytes(), bucket)));
                    System.err.println(rows.get(rows.size() - 1));
                }
            }
        });
        String header = String.format(
                Locale.ROOT,
                "### Media parts by reference: %d copies of one %,d-byte image, one checkpoint per copy%n%n"
                        + "Machine load average at the end: %s%n%n"
                        + "| backend | image bytes saved | held, inline | held, by reference | inline / by reference"
                        + " | note |%n|---|---:|---:|---:|---:|---|%n",
                copies,
                image.length,
                GrowthResults.loadAverage());
        GrowthResults.publish("media-blobs", header, rows);
    }

    /**
     * Bytes held after a run, and the copy whose save the backend's maximum checkpoint size refused.
     *
     * @param refusedAt the 1-based copy refused, 0 when every save succeeded
     */
    private record Held(long bytes, int refusedAt, long limit) {
        String note() {
            return refusedAt == 0
                    ? ""
                    : String.format(
                            Locale.ROOT,
                            "copy %d refused: over the backend's maximum checkpoint size of %,d bytes",
                            refusedAt,
                            limit);
        }
    }

    /** The conversation on our provider over {@code namespace}, and the bytes held afterwards. */
    private static Held run(
            BackendDriver driver,
            BenchSettings settings,
            String namespace,
            long threshold,
            PersistenceStorageProvider<CheckpointFilter> blobStore,
            byte[] image,
            int copies) {
        var builder = driver.builder(settings, namespace, false, true)
                .settings(StorageSettings.from(BenchmarkedForm.settings(true))
                        .blobThreshold(threshold)
                        .maxCheckpointSize(MAX_SIZE)
                        .build());
        if (blobStore != null) {
            builder.blobStore(blobStore);
        }
        var messages = new ArrayList<Message>();
        AgentCheckpoint last = null;
        try (var provider = builder.build()) {
            for (int copy = 0; copy < copies; copy++) {
                messages.add(new Message(
                        "q" + copy,
                        Message.Role.USER,
                        "and this picture?",
                        List.of(ContentPart.bytes(ContentPart.MediaKind.IMAGE, image, "image/png")),
                        null,
                        java.util.Map.of()));
                messages.add(Message.assistant("the same picture as before").withId("a" + copy));
                last = AgentCheckpoint.builder()
                        .checkpointId("media-" + copy)
                        .agentId(AGENT)
                        .version(copy)
                        .createdAt(Instant.parse("2026-01-01T00:00:00Z").plusSeconds(copy))
                        .messageHistory(List.copyOf(messages))
                        .build();
                try {
                    provider.saveCheckpoint(AGENT, last);
                } catch (CheckpointTooLargeException e) {
                    provider.close();
                    return new Held(driver.bytesHeld(settings, namespace), copy + 1, e.limit());
                }
            }
            if (!provider.getLatestCheckpoint(AGENT).orElseThrow().equals(last)) {
                throw new IllegalStateException("the latest checkpoint did not read back equal on " + namespace);
            }
        } catch (Exception e) {
            throw new IllegalStateException("The media benchmark failed on " + namespace, e);
        }
        return new Held(driver.bytesHeld(settings, namespace), 0, 0);
    }

    private static String row(String store, int imageBytes, int copies, Held inline, long byReference, String note) {
        String notes = inline.refusedAt() == 0 ? note : ("inline: " + inline.note() + " " + note).strip();
        return String.format(
                Locale.ROOT,
                "| %s | %,d | %s | %,d | %s | %s |",
                store,
                (long) imageBytes * copies,
                inline.refusedAt() == 0 ? String.format(Locale.ROOT, "%,d", inline.bytes()) : "refused",
                byReference,
                inline.refusedAt() == 0
                        ? String.format(Locale.ROOT, "%.1f×", inline.bytes() / (double) byReference)
                        : "–",
                notes);
    }
}
