package dev.agentpersistence.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** Which H2 failures the retrier runs again. */
class H2DialectTest {
    private final H2Dialect dialect = new H2Dialect();

    @Test
    void aDeletionThatMetACheckpointsNewMetadataRowsIsRunAgain() {
        var childExists = new SQLException("Referential integrity constraint violation", "23503");

        assertThat(FailureKind.of(new RuntimeException(childExists), dialect)).isEqualTo(FailureKind.TRANSIENT);
    }

    @Test
    void aMissingParentOrAUniqueClashIsNot() {
        assertThat(dialect.isTransient(new SQLException("parent missing", "23506")))
                .isFalse();
        assertThat(FailureKind.of(new RuntimeException(new SQLException("duplicate", "23505")), dialect))
                .isEqualTo(FailureKind.UNIQUE_VIOLATION);
    }
}
