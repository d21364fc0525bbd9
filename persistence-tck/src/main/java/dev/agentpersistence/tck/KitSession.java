package dev.agentpersistence.tck;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.storage.StorageSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import org.opentest4j.TestAbortedException;

/**
 * The providers and agent ids of one kit test: creates providers through the test's hook, remembers them, closes them
 * afterwards, and makes agent ids unique to the test so that storage shared between tests (or between runs) cannot leak
 * into results.
 */
final class KitSession {

    /** The provider hook of the kit, which may throw anything. */
    @FunctionalInterface
    interface ProviderSource {
        PersistenceStorageProvider<CheckpointFilter> create() throws Exception;
    }

    private static final char[] ALPHABET = "abcdefghijkmnopqrstuvwxyz23456789".toCharArray();

    /** The kit's hook for a provider writing with given settings, which may throw anything. */
    @FunctionalInterface
    interface SettingsSource {
        PersistenceStorageProvider<CheckpointFilter> create(StorageSettings settings) throws Exception;
    }

    /** The kit's hook for the raw contents of the test's storage, which may throw anything. */
    @FunctionalInterface
    interface DumpSource {
        byte[] dump() throws Exception;
    }

    private final ProviderSource source;
    private final SettingsSource settingsSource;
    private final BooleanSupplier sharesStorage;
    private final DumpSource dumpSource;
    private final AbsentSource absentSource;
    private final String runId = randomId(10);
    private final List<PersistenceStorageProvider<CheckpointFilter>> created = new ArrayList<>();
    private PersistenceStorageProvider<CheckpointFilter> primary;

    /** The kit's hook for a store that does not exist, which may throw anything. */
    @FunctionalInterface
    interface AbsentSource {
        AbsentStore absent() throws Exception;
    }

    KitSession(
            ProviderSource source,
            SettingsSource settingsSource,
            BooleanSupplier sharesStorage,
            DumpSource dumpSource) {
        this(source, settingsSource, sharesStorage, dumpSource, () -> {
            throw new TestAbortedException("this kit run has no absentStore() hook");
        });
    }

    KitSession(
            ProviderSource source,
            SettingsSource settingsSource,
            BooleanSupplier sharesStorage,
            DumpSource dumpSource,
            AbsentSource absentSource) {
        this.absentSource = Objects.requireNonNull(absentSource, "absentSource");
        this.source = Objects.requireNonNull(source, "source");
        this.settingsSource = Objects.requireNonNull(settingsSource, "settingsSource");
        this.sharesStorage = Objects.requireNonNull(sharesStorage, "sharesStorage");
        this.dumpSource = Objects.requireNonNull(dumpSource, "dumpSource");
    }

    /** The test's main provider, created on first use. */
    synchronized PersistenceStorageProvider<CheckpointFilter> provider() {
        if (primary == null) {
            primary = newProvider();
        }
        return primary;
    }

    /** Another provider over the same storage, closed after the test like the first. */
    synchronized PersistenceStorageProvider<CheckpointFilter> newProvider() {
        return remember(source::create);
    }

    /** A provider over the same storage writing with {@code settings}, closed after the test like the first. */
    synchronized PersistenceStorageProvider<CheckpointFilter> newProvider(StorageSettings settings) {
        return remember(() -> settingsSource.create(settings));
    }

    private PersistenceStorageProvider<CheckpointFilter> remember(ProviderSource from) {
        PersistenceStorageProvider<CheckpointFilter> provider;
        try {
            provider = from.create();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("createProvider() failed: " + e, e);
        }
        if (provider == null) {
            throw new IllegalStateException("createProvider() returned null");
        }
        created.add(provider);
        return provider;
    }

    /** Everything the test's storage holds, as raw bytes. */
    byte[] dump() {
        try {
            return Objects.requireNonNull(dumpSource.dump(), "dumpStorage() returned null");
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("dumpStorage() failed: " + e, e);
        }
    }

    /** A store that does not exist, from the test's hook. */
    AbsentStore absentStore() {
        try {
            return Objects.requireNonNull(absentSource.absent(), "absentStore() returned null");
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("absentStore() failed: " + e, e);
        }
    }

    boolean sharesStorage() {
        return sharesStorage.getAsBoolean();
    }

    /** A name for messages: the class of the test's provider. */
    String providerName() {
        return provider().getClass().getName();
    }

    /** {@code label} made unique to this test by a random suffix. */
    String agentId(String label) {
        return label + "-" + runId;
    }

    /** The random part every agent id of this test carries. */
    String runId() {
        return runId;
    }

    /** Closes every provider this test created, newest first; reports every failure. */
    synchronized void closeAll() {
        AssertionError failure = null;
        for (int i = created.size() - 1; i >= 0; i--) {
            var provider = created.get(i);
            try {
                provider.close();
            } catch (TestAbortedException e) {
                throw e;
            } catch (Exception e) {
                if (failure == null) {
                    failure = new AssertionError(
                            "close() of " + provider.getClass().getName()
                                    + " failed; close() must be idempotent and must not throw after a test",
                            e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        created.clear();
        primary = null;
        if (failure != null) {
            throw failure;
        }
    }

    static String randomId(int length) {
        var id = new char[length];
        for (int i = 0; i < length; i++) {
            id[i] = ALPHABET[ThreadLocalRandom.current().nextInt(ALPHABET.length)];
        }
        return new String(id);
    }
}
