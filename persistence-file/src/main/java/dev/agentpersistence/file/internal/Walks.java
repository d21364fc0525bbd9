package dev.agentpersistence.file.internal;

import dev.agentpersistence.backend.StoredDocument;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/** What both forms of an agent do with a newest-first walk. */
final class Walks {
    private Walks() {
    }

    /** The first {@code limit} documents of a newest-first walk, in ascending version order. */
    static List<StoredDocument> newestAscending(Iterator<StoredDocument> newestFirst, int limit) {
        var found = new ArrayList<StoredDocument>();
        while (found.size() < limit && newestFirst.hasNext()) {
            found.add(newestFirst.next());
        }
        Collections.reverse(found);
        return found;
    }
}
