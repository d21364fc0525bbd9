package dev.agentpersistence.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpersistence.ProviderNotFoundException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Discovery points at mistakes: an {@code agent.persistence.*} key no setting declares is reported with a WARN at each
 * discovery naming the nearest declared key (the factories' settings, the shared ones, in property or environment
 * form), and a provider name no factory has names the nearest factory.
 */
class DiscoveryHintsTest {
    private static final String SERVICES = "META-INF/services/" + PersistenceStorageProviderFactory.class.getName();

    @TempDir
    Path dir;

    private URLClassLoader loader;

    @BeforeEach
    void listGammaAndAlpha() throws IOException {
        Path file = dir.resolve(SERVICES);
        Files.createDirectories(file.getParent());
        Files.writeString(
                file,
                TestFactories.Gamma.class.getName() + "\n" + TestFactories.Alpha.class.getName() + "\n",
                StandardCharsets.UTF_8);
        loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader());
    }

    @AfterEach
    void close() throws IOException {
        loader.close();
    }

    @Test
    void aMistypedKeyIsReportedAtEachDiscoveryWithTheNearestKey() {
        var config = ProviderConfig.of(
                Map.of(ProviderConfig.PROVIDER, "gamma", "agent.persistence.gama.url", "g://elsewhere"));

        List<String> first = warningsOf(() -> PersistenceStorageProviders.load(config, loader));
        List<String> second = warningsOf(() -> PersistenceStorageProviders.load(config, loader));

        assertThat(first)
                .singleElement()
                .asString()
                .contains("Unknown setting 'agent.persistence.gama.url' is ignored")
                .contains("did you mean agent.persistence.gamma.url?");
        assertThat(second).as("reported again by the next discovery").isEqualTo(first);
    }

    @Test
    void theEnvironmentFormIsMatchedAndTheDeclaredKeySuggested() {
        var config = ProviderConfig.of(Map.of("AGENT_PERSISTENCE_GAMMA_POOL_SIZ", "8"));

        assertThat(UnknownSettingKeys.warnings(config, PersistenceStorageProviders.available(loader), loader))
                .singleElement()
                .asString()
                .contains("'AGENT_PERSISTENCE_GAMMA_POOL_SIZ'")
                .contains("did you mean agent.persistence.gamma.pool-size?");
    }

    @Test
    void theSharedSettingsAreKnownAndSuggested() {
        var known = ProviderConfig.of(Map.of(
                "agent.persistence.ttl",
                "1h",
                "agent.persistence.retention.keep-latest",
                "5",
                "agent.persistence.gamma.url",
                "g://x",
                "AGENT_PERSISTENCE_GAMMA_POOL_SIZE",
                "3",
                ProviderConfig.PROVIDER,
                "gamma"));
        assertThat(UnknownSettingKeys.warnings(known, PersistenceStorageProviders.available(loader), loader))
                .isEmpty();

        var typo = ProviderConfig.of(Map.of("agent.persistence.tll", "1h"));
        assertThat(UnknownSettingKeys.warnings(typo, PersistenceStorageProviders.available(loader), loader))
                .singleElement()
                .asString()
                .contains("did you mean agent.persistence.ttl?");
    }

    @Test
    void aKeyFarFromEveryKnownOneSaysSoAndOtherPrefixesAreLeftAlone() {
        var config = ProviderConfig.of(
                Map.of("agent.persistence.completely.unrelated.thing", "x", "other.library.url", "y"));

        assertThat(UnknownSettingKeys.warnings(config, PersistenceStorageProviders.available(loader), loader))
                .singleElement()
                .asString()
                .contains("'agent.persistence.completely.unrelated.thing'")
                .contains("no known setting is close to it");
    }

    @Test
    void whenTheChosenFactoryDeclaresEveryGivenKeyNoOtherDeclarationsAreRead() throws IOException {
        try (var withProbe = loaderListing(TestFactories.Gamma.class, TestFactories.DeclarationsNotToBeRead.class)) {
            var config = ProviderConfig.of(
                    Map.of(ProviderConfig.PROVIDER, "gamma", "agent.persistence.gamma.url", "g://x", "other.key", "y"));

            List<String> warnings = warningsOf(() -> PersistenceStorageProviders.load(config, withProbe));

            assertThat(warnings).isEmpty();
        }
    }

    @Test
    void aKeyTheChosenFactoryDoesNotDeclareIsJudgedAgainstAllAsWithoutAChoice() {
        var config = ProviderConfig.of(Map.of(
                ProviderConfig.PROVIDER,
                "alpha",
                "agent.persistence.gamma.url",
                "g://declared-by-another-provider",
                "agent.persistence.gama.pool-size",
                "3"));
        var alpha = PersistenceStorageProviders.available(loader).stream()
                .filter(f -> f.name().equals("alpha"))
                .findFirst();

        List<String> chosen =
                UnknownSettingKeys.warnings(config, PersistenceStorageProviders.available(loader), alpha, loader);

        assertThat(chosen)
                .isEqualTo(UnknownSettingKeys.warnings(config, PersistenceStorageProviders.available(loader), loader))
                .singleElement()
                .asString()
                .contains("'agent.persistence.gama.pool-size'")
                .contains("did you mean agent.persistence.gamma.pool-size?");
        assertThat(warningsOf(() -> PersistenceStorageProviders.load(config, loader)))
                .singleElement()
                .asString()
                .contains("did you mean agent.persistence.gamma.pool-size?");
    }

    @Test
    void aMistypedProviderNameSuggestsTheNearestFactory() {
        assertThatThrownBy(() -> PersistenceStorageProviders.load("gama", ProviderConfig.empty(), loader))
                .isInstanceOf(ProviderNotFoundException.class)
                .hasMessageContaining("No storage provider named 'gama'")
                .hasMessageContaining("did you mean 'gamma'?")
                .hasMessageContaining(ProviderConfig.PROVIDER + "=gamma");
        assertThatThrownBy(() -> PersistenceStorageProviders.load(
                        ProviderConfig.of(Map.of(ProviderConfig.PROVIDER, "alhpa")), loader))
                .isInstanceOf(ProviderNotFoundException.class)
                .hasMessageContaining("did you mean 'alpha'?");
        assertThatThrownBy(() -> PersistenceStorageProviders.load("cassandra", ProviderConfig.empty(), loader))
                .isInstanceOf(ProviderNotFoundException.class)
                .hasMessageNotContaining("did you mean");
    }

    @Test
    void editDistanceCountsInsertionsDeletionsAndSubstitutions() {
        assertThat(NearestName.distance("jdbc", "jdbc")).isZero();
        assertThat(NearestName.distance("jbdc", "jdbc")).isEqualTo(2);
        assertThat(NearestName.distance("redis", "rediss")).isEqualTo(1);
        assertThat(NearestName.distance("", "s3")).isEqualTo(2);
        assertThat(NearestName.of("inmemmory", List.of("file", "inmemory", "jdbc")))
                .hasValue("inmemory");
        assertThat(NearestName.of("xyz", List.of("file", "inmemory", "jdbc"))).isEmpty();
    }

    /** A class loader whose services file lists {@code factories}. */
    private URLClassLoader loaderListing(Class<?>... factories) throws IOException {
        Path root = Files.createDirectories(dir.resolve("listing-" + factories.length));
        Path file = root.resolve(SERVICES);
        Files.createDirectories(file.getParent());
        var names = new StringBuilder();
        for (Class<?> factory : factories) {
            names.append(factory.getName()).append('\n');
        }
        Files.writeString(file, names, StandardCharsets.UTF_8);
        return new URLClassLoader(new URL[] {root.toUri().toURL()}, getClass().getClassLoader());
    }

    /** The WARN lines written to standard error (slf4j-simple) while {@code action} runs. */
    private static List<String> warningsOf(Runnable action) {
        var err = new ByteArrayOutputStream();
        PrintStream original = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setErr(original);
        }
        return err.toString(StandardCharsets.UTF_8)
                .lines()
                .filter(l -> l.contains("WARN") && l.contains("Unknown setting"))
                .toList();
    }
}
