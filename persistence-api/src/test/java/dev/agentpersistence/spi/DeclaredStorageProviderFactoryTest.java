package dev.agentpersistence.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.settings.Setting;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A factory declared by its parts answers every method of the SPI from them. */
class DeclaredStorageProviderFactoryTest {
    private static final ProviderConfig BASE = ProviderConfig.of(Map.of("agent.persistence.ttl", "1h"));

    static final Setting<String> URL = Setting.text("agent.persistence.delta.url", "delta://local", "The URL.");
    static final Setting<String> DIRECTORY = Setting.text("agent.persistence.delta.dir", "delta", "The directory.");
    static final Setting<Integer> POOL = Setting.integer("agent.persistence.delta.pool", 4, 1, 64, "The pool.");

    /** Opens the URL form, the directory form and a form of its own; its provider remembers its configuration. */
    public static final class Delta extends DeclaredStorageProviderFactory {
        public Delta() {
            super(
                    "delta",
                    List.of(URL, DIRECTORY, POOL),
                    config -> new TestFactories.MadeProvider("delta", config),
                    UriForm.setting("delta://host:port", URL, "delta://", "deltas://"),
                    UriForm.directory("delta-dir:", DIRECTORY),
                    UriForm.of(
                            "delta-pool:<size>",
                            (provider, uri, base) -> StorageUri.select(
                                    provider, base.with(POOL.key(), uri.substring(uri.indexOf(':') + 1)), "a pool"),
                            "delta-pool:"));
        }
    }

    /** Selected by name only: no settings, no URI form. */
    public static final class Epsilon extends DeclaredStorageProviderFactory {
        public Epsilon() {
            super("epsilon", List.of(), config -> new TestFactories.MadeProvider("epsilon", config));
        }
    }

    private final Delta delta = new Delta();

    @Test
    void answersNameSettingsAndCreateFromTheDeclaration() {
        assertThat(delta.name()).isEqualTo("delta");
        assertThat(delta.settings()).containsExactly(URL, DIRECTORY, POOL);
        PersistenceStorageProvider<CheckpointFilter> made = delta.create(BASE);
        assertThat(made).isEqualTo(new TestFactories.MadeProvider("delta", BASE));
        assertThatThrownBy(() -> delta.create(null)).isInstanceOf(NullPointerException.class);

        var epsilon = new Epsilon();
        assertThat(epsilon.name()).isEqualTo("epsilon");
        assertThat(epsilon.settings()).isEmpty();
        assertThat(epsilon.uriForms()).isEmpty();
        assertThat(epsilon.parseUri("epsilon:x", BASE)).isEmpty();
    }

    @Test
    void listsItsUriFormsInTheOrderDeclared() {
        assertThat(delta.uriForms()).containsExactly("delta://host:port", "delta-dir:<dir>", "delta-pool:<size>");
        assertThat(StorageUri.forms(List.of(delta, new Epsilon())))
                .isEqualTo("delta://host:port, delta-dir:<dir>, delta-pool:<size> or a provider name");
    }

    @Test
    void aUriOfTheSettingFormIsThatSettingsValueDescribedWithoutPasswords() {
        String uri = "deltas://app:s3cret@db.example:7000/2";
        StorageUri parsed = delta.parseUri(uri, BASE).orElseThrow();
        assertThat(parsed.provider()).isEqualTo("delta");
        assertThat(parsed.config().get(ProviderConfig.PROVIDER)).contains("delta");
        assertThat(parsed.config().get(URL.key())).contains(uri);
        assertThat(parsed.config().get("agent.persistence.ttl")).contains("1h");
        assertThat(parsed.description()).isEqualTo(ProviderConfig.redact(uri)).doesNotContain("s3cret");
        assertThat(delta.parseUri("DELTA://h:1", BASE).orElseThrow().config().get(URL.key()))
                .as("schemes match ignoring case")
                .contains("DELTA://h:1");
    }

    @Test
    void aUriOfTheDirectoryFormIsTheAbsoluteDirectory() {
        StorageUri relative = delta.parseUri("delta-dir:target/cp", BASE).orElseThrow();
        Path directory = Path.of(relative.config().get(DIRECTORY.key()).orElseThrow());
        assertThat(directory)
                .isAbsolute()
                .isEqualTo(Path.of("target/cp").toAbsolutePath().normalize());
        assertThat(relative.description()).isEqualTo("delta-dir:" + directory);
        assertThat(delta.parseUri("delta-dir:///tmp/cp", BASE)
                        .orElseThrow()
                        .config()
                        .get(DIRECTORY.key()))
                .contains(Path.of("/tmp/cp").toString());
        assertThatThrownBy(() -> delta.parseUri("delta-dir:", BASE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs a path");
    }

    @Test
    void aUriOfItsOwnFormIsReadByItsReaderForThisProvider() {
        StorageUri parsed = delta.parseUri("delta-pool:8", BASE).orElseThrow();
        assertThat(parsed.provider()).isEqualTo("delta");
        assertThat(parsed.config().get(POOL.key())).contains("8");
        assertThat(parsed.description()).isEqualTo("a pool");
    }

    @Test
    void aSchemeItDoesNotOwnIsNotItsUri() {
        assertThat(delta.parseUri("redis://127.0.0.1:6379", BASE)).isEmpty();
        assertThat(delta.parseUri("delta", BASE)).as("a bare name is no URI").isEmpty();
        assertThat(delta.parseUri("deltax://h", BASE)).isEmpty();
        assertThat(delta.parseUri("file:delta://x", BASE))
                .as("the scheme starts the URI")
                .isEmpty();
    }

    @Test
    void storageUriParseAsksTheDeclaredFactoriesInTurn() {
        List<PersistenceStorageProviderFactory> factories = List.of(new Epsilon(), delta);
        assertThat(StorageUri.parse("delta://h:1", BASE, factories).provider()).isEqualTo("delta");
        assertThat(StorageUri.parse("epsilon", BASE, factories).provider()).isEqualTo("epsilon");
        assertThatThrownBy(() -> StorageUri.parse("mongodb://x", BASE, factories))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("use delta://host:port, delta-dir:<dir>, delta-pool:<size> or a provider name");
    }

    @Test
    void aFormNeedsAScheme() {
        assertThatThrownBy(() -> UriForm.setting("x:<y>", URL))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs a scheme");
        assertThat(UriForm.setting("delta://host:port", URL, "delta://", "deltas://")
                        .schemes())
                .containsExactly("delta://", "deltas://");
    }
}
