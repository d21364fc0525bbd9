package dev.agentpersistence.backend;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * A lazy newest-first walk over stored documents, for a {@link CandidateScan} and for a backend's own listings: a
 * subclass says how to find the next document, this class does the iterator bookkeeping and remembers whether anything
 * was returned yet (a walk that finds a listed record deleted before it returned anything should list again, so it
 * never misses a newer one).
 */
public abstract class NewestFirstWalk implements Iterator<StoredDocument> {
    private StoredDocument next;
    private boolean returnedAny;

    /** The next document, or {@code null} when the walk is over. */
    protected abstract StoredDocument advance();

    /** Whether {@link #next()} has returned a document yet. */
    protected final boolean returnedAny() {
        return returnedAny;
    }

    @Override
    public final boolean hasNext() {
        if (next == null) {
            next = advance();
        }
        return next != null;
    }

    @Override
    public final StoredDocument next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        StoredDocument result = next;
        next = null;
        returnedAny = true;
        return result;
    }

    /** The next {@code limit} documents of this walk (fewer when it ends), in ascending version order. */
    public final List<StoredDocument> newestAscending(int limit) {
        var found = new ArrayList<StoredDocument>();
        while (found.size() < limit && hasNext()) {
            found.add(next());
        }
        Collections.reverse(found);
        return found;
    }
}
