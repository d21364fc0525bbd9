package dev.agentpersistence.cli.internal;

import dev.agentpersistence.AgentCheckpoint;
import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.backend.AgentSummary;
import dev.agentpersistence.backend.StoredDocument;
import dev.agentpersistence.backend.StoredForm;
import dev.agentpersistence.cli.CliException;
import dev.agentpersistence.redaction.Redactor;
import dev.agentpersistence.spi.ProviderConfig;
import dev.agentpersistence.spi.StorageUri;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An open store as the commands see it: the provider named by a store URI, where it is (passwords hidden), and the
 * reads the commands share: agents, pages of checkpoints, stored sizes, one checkpoint by version or id.
 */
public final class Store implements AutoCloseable {
    private final PersistenceStorageProvider<CheckpointFilter> provider;
    private final String description;
    private final Redactor redactor;
    private final ProviderConfig config;

    private Store(
            PersistenceStorageProvider<CheckpointFilter> provider,
            String description,
            Redactor redactor,
            ProviderConfig config) {
        this.provider = provider;
        this.config = config;
        this.description = description;
        this.redactor = redactor;
    }

    /**
     * Opens the store {@code uri} names with {@code config} beneath it, and checks it answers.
     *
     * @throws CliException when the URI has none of the accepted forms
     */
    public static Store open(String uri, ProviderConfig config) {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(config, "config");
        StorageUri parsed;
        try {
            parsed = StorageUri.parse(uri, config);
        } catch (IllegalArgumentException e) {
            throw CliException.usage(e.getMessage());
        }
        PersistenceStorageProvider<CheckpointFilter> provider = parsed.open();
        var store = new Store(provider, parsed.description(), Redactor.forCredentialsIn(uri), parsed.config());
        try {
            provider.checkHealth();
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        return store;
    }

    /** Wraps an already open provider (closed with this store). */
    public static Store of(PersistenceStorageProvider<CheckpointFilter> provider, String description) {
        return new Store(
                Objects.requireNonNull(provider, "provider"),
                Objects.requireNonNull(description, "description"),
                Redactor.patternsOnly(),
                ProviderConfig.empty());
    }

    /** The provider. */
    public PersistenceStorageProvider<CheckpointFilter> provider() {
        return provider;
    }

    /** Where the store is, passwords hidden. */
    public String description() {
        return description;
    }

    /** The settings the store was opened with (secrets included: never print them). */
    public ProviderConfig config() {
        return config;
    }

    /** Hides the credentials of this store's URI in {@code text}. */
    public String redact(String text) {
        return redactor.redact(text);
    }

    /** The agents with checkpoints, sorted. */
    public List<String> agents() {
        return provider.listAgents();
    }

    /** Every checkpoint of the agent matching {@code base}, page by page, newest page first. */
    public void pages(String agentId, CheckpointFilter base, VersionPages.PageHandler<AgentCheckpoint> handler) {
        VersionPages.newestFirst(
                base,
                VersionPages.DEFAULT_PAGE,
                filter -> provider.getCheckpoints(agentId, filter),
                AgentCheckpoint::version,
                handler);
    }

    /** Every checkpoint of the agent, page by page, newest page first. */
    public void pages(String agentId, VersionPages.PageHandler<AgentCheckpoint> handler) {
        pages(agentId, CheckpointFilter.builder().build(), handler);
    }

    /**
     * The stored sizes in bytes of the agent's documents with versions from {@code page}'s lowest to its highest, by
     * version; empty when the provider does not show its stored form.
     */
    public Map<Long, Integer> storedSizes(String agentId, List<AgentCheckpoint> page) {
        Optional<StoredForm> form = provider.storedForm();
        if (form.isEmpty() || page.isEmpty()) {
            return Map.of();
        }
        long lowest = page.get(0).version();
        long highest = page.get(page.size() - 1).version();
        var sizes = new HashMap<Long, Integer>();
        VersionPages.newestFirst(
                CheckpointFilter.builder().maxVersion(highest).build(),
                VersionPages.DEFAULT_PAGE,
                filter -> form.get().documents(agentId, filter),
                StoredDocument::version,
                documents -> {
                    for (StoredDocument document : documents) {
                        if (document.version() >= lowest) {
                            sizes.put(document.version(), document.size());
                        }
                    }
                    return documents.get(0).version() > lowest;
                });
        return sizes;
    }

    /** How many checkpoints an agent has and how many bytes they take as stored ({@code -1}: not known). */
    public record Footprint(long checkpoints, long bytes) {}

    /** The agent's checkpoint count and stored bytes, read page by page without decoding where the store allows. */
    public Footprint footprint(String agentId) {
        long[] totals = new long[2];
        Optional<StoredForm> form = provider.storedForm();
        if (form.isPresent()) {
            VersionPages.newestFirst(
                    CheckpointFilter.builder().build(),
                    VersionPages.DEFAULT_PAGE,
                    filter -> form.get().documents(agentId, filter),
                    StoredDocument::version,
                    documents -> {
                        totals[0] += documents.size();
                        documents.forEach(document -> totals[1] += document.size());
                        return true;
                    });
            return new Footprint(totals[0], totals[1]);
        }
        pages(agentId, page -> {
            totals[0] += page.size();
            return true;
        });
        return new Footprint(totals[0], -1);
    }

    /**
     * Every agent with its checkpoint count, stored bytes ({@code -1}: not known) and latest checkpoint, sorted: in one
     * pass through the stored form when the provider shows one, per agent otherwise.
     */
    public List<AgentSummary> agentSummaries() {
        Optional<StoredForm> form = provider.storedForm();
        if (form.isPresent()) {
            return form.get().agentSummaries();
        }
        var summaries = new ArrayList<AgentSummary>();
        for (String agentId : agents()) {
            Footprint footprint = footprint(agentId);
            summaries.add(new AgentSummary(
                    agentId,
                    footprint.checkpoints(),
                    footprint.bytes(),
                    latest(agentId)
                            .map(latest -> new AgentSummary.Latest(
                                    latest.version(),
                                    latest.checkpointId(),
                                    latest.nodeId(),
                                    latest.createdAt(),
                                    latest.isTombstone()))));
        }
        return summaries;
    }

    /** The agent's newest checkpoint. */
    public Optional<AgentCheckpoint> latest(String agentId) {
        return provider.getLatestCheckpoint(agentId, CheckpointFilter.builder().build());
    }

    /**
     * The checkpoint {@code reference} names: a version number, else a checkpoint id; the newest when {@code reference}
     * is {@code null}.
     *
     * @throws CliException when there is no such checkpoint
     */
    public AgentCheckpoint checkpoint(String agentId, String reference) {
        Optional<AgentCheckpoint> found;
        if (reference == null) {
            found = latest(agentId);
        } else if (reference.matches("\\d{1,18}")) {
            long version = Long.parseLong(reference);
            found = provider.getLatestCheckpoint(
                            agentId,
                            CheckpointFilter.builder().maxVersion(version).build())
                    .filter(checkpoint -> checkpoint.version() == version);
        } else {
            found = provider.getCheckpoint(agentId, reference);
        }
        return found.orElseThrow(() -> CliException.notFound(
                reference == null
                        ? "agent '" + agentId + "' has no checkpoints in " + description
                        : "agent '" + agentId + "' has no checkpoint "
                                + (reference.matches("\\d+") ? "version " : "id ") + reference + " in " + description));
    }

    @Override
    public void close() {
        provider.close();
    }
}
