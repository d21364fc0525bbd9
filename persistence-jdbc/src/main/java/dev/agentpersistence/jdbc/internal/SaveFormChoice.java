package dev.agentpersistence.jdbc.internal;

import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How saves write their rows: the dialect's {@link SaveForm}, or {@link SaveForm#STATEMENTS} once the server refused
 * it.
 */
final class SaveFormChoice {
    private static final Logger LOG = LoggerFactory.getLogger(JdbcDatabase.class);

    private final DatabaseIdentity identity;
    private volatile boolean refused;

    SaveFormChoice(DatabaseIdentity identity) {
        this.identity = identity;
    }

    /** The form to use now; the dialect must be known. */
    SaveForm current() {
        return refused ? SaveForm.STATEMENTS : identity.dialect().saveForm();
    }

    /**
     * Whether {@code failure} of a save in {@code form} says the server refuses that form; if so, later saves use
     * {@link SaveForm#STATEMENTS} (logged once).
     */
    boolean refusedBy(SaveForm form, RuntimeException failure) {
        if (form == SaveForm.STATEMENTS) {
            return false;
        }
        Dialect dialect = identity.dialect();
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof SQLException sql && dialect.refusesSaveForm(sql)) {
                if (!refused) {
                    refused = true;
                    LOG.info(
                            "{} refused saves as one {} statement ({}); saving with a transaction of several "
                                    + "statements",
                            identity.endpoint(),
                            form,
                            identity.redactor().redact(sql.getMessage()));
                }
                return true;
            }
        }
        return false;
    }
}
