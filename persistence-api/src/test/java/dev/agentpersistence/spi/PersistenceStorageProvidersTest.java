package dev.agentpersistence.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.PersistenceException;
import dev.agentpersistence.PersistenceStorageProvider;
import dev.agentpersistence.ProviderNotFoundException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.NOPLoggerFactory;

class PersistenceStorageProvidersTest {
    private static final String SERVICES = "META-INF/services/" + PersistenceStorageProviderFactory.class.getName();

    @TempDir
    Path dir;

    private final List<URLClassLoader> loaders = new ArrayList<>();

    @AfterEach
    void closeLoaders() throws IOException {
        for (var loader : loaders) {
            loader.close();
        }
    }

    /** A class loader that sees the test classes and a services file listing {@code classes}. */
    private ClassLoader listing(Class<?>... classes) throws IOException {
        return listing(Stream.of(classes).map(Class::getName).toArray(String[]::new));
    }

    private ClassLoader listing(String... classNames) throws IOException {
        Path file = dir.resolve(SERVICES);
        Files.createDirectories(file.getParent());
        Files.writeString(
                file, "# factories under test\n" + String.join("\n", classNames) + "\n", StandardCharsets.UTF_8);
        var loader =
                new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader());
        loaders.add(loader);
        return loader;
    }

    private static TestFactories.MadeProvider made(PersistenceStorageProvider<?> provider) {
        assertThat(provider).isInstanceOf(TestFactories.MadeProvider.class);
        return (TestFactories.MadeProvider) provider;
    }

    @Test
    void noFactoryGivesTheNoOpProviderWithOneWarning() throws IOException {
        var empty = new URLClassLoader(new URL[] {dir.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
        loaders.add(empty);
        var err = new ByteArrayOutputStream();
        PrintStream original = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        PersistenceStorageProvider<?> provider;
        try {
            provider = PersistenceStorageProviders.load(ProviderConfig.empty(), empty);
        } finally {
            System.setErr(original);
        }

        assertThat(provider).isInstanceOf(NoPersistenceStorageProvider.class);
        var warnings = err.toString(StandardCharsets.UTF_8)
                .lines()
                .filter(l -> l.contains("WARN"))
                .toList();
        assertThat(warnings)
                .singleElement()
                .asString()
                .contains("No agent-persistence storage provider found")
                .contains(ProviderConfig.PROVIDER);
        assertThat(PersistenceStorageProviders.available(empty)).isEmpty();
    }

    @Test
    void withoutAnSlf4jBindingAnImplicitNoOpProviderIsAnnouncedOnceOnStandardError() throws IOException {
        var empty = new URLClassLoader(new URL[] {dir.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
        loaders.add(empty);
        var err = new ByteArrayOutputStream();
        var notice =
                new NoProviderNotice(() -> new PrintStream(err, true, StandardCharsets.UTF_8), NOPLoggerFactory::new);

        var first = PersistenceStorageProviders.load(ProviderConfig.empty(), empty, notice);
        var second = PersistenceStorageProviders.load(ProviderConfig.empty(), empty, notice);

        assertThat(first).isInstanceOf(NoPersistenceStorageProvider.class);
        assertThat(second).isInstanceOf(NoPersistenceStorageProvider.class);
        assertThat(err.toString(StandardCharsets.UTF_8).lines().toList())
                .singleElement()
                .asString()
                .contains("checkpoints are NOT stored")
                .contains(ProviderConfig.PROVIDER + "=none");
    }

    @Test
    void anExplicitNoneOrAnSlf4jBindingPrintsNothingOnStandardError() throws IOException {
        var empty = new URLClassLoader(new URL[] {dir.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
        loaders.add(empty);
        var err = new ByteArrayOutputStream();
        var withoutBinding =
                new NoProviderNotice(() -> new PrintStream(err, true, StandardCharsets.UTF_8), NOPLoggerFactory::new);
        var withBinding = new NoProviderNotice(
                () -> new PrintStream(err, true, StandardCharsets.UTF_8), LoggerFactory::getILoggerFactory);

        var none = PersistenceStorageProviders.load(
                ProviderConfig.of(Map.of(ProviderConfig.PROVIDER, "none")), empty, withoutBinding);
        var logged = PersistenceStorageProviders.load(ProviderConfig.empty(), empty, withBinding);

        assertThat(none).isInstanceOf(NoPersistenceStorageProvider.class);
        assertThat(logged).isInstanceOf(NoPersistenceStorageProvider.class);
        assertThat(LoggerFactory.getILoggerFactory()).isNotInstanceOf(NOPLoggerFactory.class);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void theOnlyFactoryIsUsedWithTheGivenConfig() throws IOException {
        var loader = listing(TestFactories.Alpha.class);
        var config = ProviderConfig.of(Map.of("agent.persistence.alpha.setting", "x"));

        var provider = made(PersistenceStorageProviders.load(config, loader));

        assertThat(provider.factory()).isEqualTo("alpha");
        assertThat(provider.config()).isEqualTo(config);
    }

    @Test
    void severalFactoriesWithoutAChoiceAreAnErrorNamingThem() throws IOException {
        var loader = listing(TestFactories.Beta.class, TestFactories.Alpha.class);

        assertThatThrownBy(() -> PersistenceStorageProviders.load(ProviderConfig.empty(), loader))
                .isInstanceOf(ProviderNotFoundException.class)
                .hasMessageContaining("alpha (" + TestFactories.Alpha.class.getName() + ")")
                .hasMessageContaining("beta (" + TestFactories.Beta.class.getName() + ")")
                .hasMessageContaining(ProviderConfig.PROVIDER)
                .hasMessageContaining("AGENT_PERSISTENCE_PROVIDER");
    }

    @Test
    void anExplicitChoiceWins() throws IOException {
        var loader = listing(TestFactories.Alpha.class, TestFactories.Beta.class);

        var byConfig =
                PersistenceStorageProviders.load(ProviderConfig.of(Map.of(ProviderConfig.PROVIDER, " Beta ")), loader);
        var byName = PersistenceStorageProviders.load("alpha", ProviderConfig.empty(), loader);
        var none = PersistenceStorageProviders.load(
                ProviderConfig.of(Map.of("AGENT_PERSISTENCE_PROVIDER", "none")), loader);

        assertThat(made(byConfig).factory()).isEqualTo("beta");
        assertThat(made(byName).factory()).isEqualTo("alpha");
        assertThat(none).isInstanceOf(NoPersistenceStorageProvider.class);
    }

    @Test
    void anUnknownExplicitChoiceNamesWhatIsAvailable() throws IOException {
        var loader = listing(TestFactories.Alpha.class);
        assertThatThrownBy(() -> PersistenceStorageProviders.load("redis", ProviderConfig.empty(), loader))
                .isInstanceOf(ProviderNotFoundException.class)
                .hasMessageContaining("No storage provider named 'redis'")
                .hasMessageContaining("alpha")
                .hasMessageContaining("persistence-redis");
    }

    @Test
    void brokenFactoriesAreSkippedAndDoNotHideTheOthers() throws IOException {
        var loader = listing(
                TestFactories.ThrowsInConstructor.class.getName(),
                "dev.agentpersistence.spi.NoSuchFactory",
                TestFactories.NotAFactory.class.getName(),
                TestFactories.Alpha.class.getName());

        assertThat(PersistenceStorageProviders.available(loader))
                .extracting(PersistenceStorageProviderFactory::name)
                .containsExactly("alpha");
        assertThat(made(PersistenceStorageProviders.load(ProviderConfig.empty(), loader))
                        .factory())
                .isEqualTo("alpha");
    }

    @Test
    void brokenFactoriesBetweenGoodOnesHideNeither() throws IOException {
        var loader = listing(
                TestFactories.Beta.class.getName(),
                TestFactories.ThrowsInConstructor.class.getName(),
                TestFactories.Alpha.class.getName());

        assertThat(PersistenceStorageProviders.available(loader))
                .extracting(PersistenceStorageProviderFactory::name)
                .containsExactly("alpha", "beta");
    }

    @Test
    void aFactoryThatCannotCreateItsProviderFailsWithItsNameAndARedactedConfig() throws IOException {
        var loader = listing(TestFactories.FailsToCreate.class, TestFactories.ReturnsNull.class);
        var config = ProviderConfig.of(Map.of("agent.persistence.failing.password", "hunter2"));

        assertThatThrownBy(() -> PersistenceStorageProviders.load("failing", config, loader))
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("'failing'")
                .hasMessageContaining(TestFactories.FailsToCreate.class.getName())
                .hasMessageContaining("bad url")
                .hasMessageNotContaining("hunter2")
                .hasCauseInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PersistenceStorageProviders.load("null", ProviderConfig.empty(), loader))
                .isInstanceOf(PersistenceException.class)
                .hasMessageContaining("returned null");
    }
}
