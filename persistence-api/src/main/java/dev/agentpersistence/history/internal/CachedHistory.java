package dev.agentpersistence.history.internal;

/** What {@link ChainCache} keeps per agent: a {@link KnownHistory} (tiered segments) or a {@link KnownLog}. */
public sealed interface CachedHistory permits KnownHistory, KnownLog {
    /** How many messages the cache holds for this history (its budget is counted in messages). */
    int messageCount();

    /** The memo of ids derived on reading for its messages stored without one. */
    DerivedIdMemo derivedIds();
}
