package dev.agentpersistence;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.Test;

/**
 * The API gate of {@code mvn verify} on a small library that inherits this build's parent POM, as every published
 * module does: version 1.0.0 is installed as the baseline, then 1.1.0 drops a public method. japicmp fails the build on
 * that break until the newest section of the library's CHANGELOG.md lists it ({@code .mvn/api-changes.groovy}); a
 * listing in an older section does not count, and a compatible change needs none.
 */
class ApiCompatibilityGateTest {
    private static final Path FIXTURE = ReactorModules.ROOT.resolve("persistence-integration-tests/target/api-gate");
    private static final String GREETER = "src/main/java/dev/agentpersistence/apigate/Greeter.java";

    @Test
    void aBreakingChangePassesOnlyWhenTheNewestChangelogSectionListsIt() throws Exception {
        writeLibrary(true, false, "## [Unreleased]\n\n### Added\n- `Greeter`.\n");
        ConsumerProject.maven(FIXTURE, "-q", "install", "-Drevision=1.0.0");

        writeLibrary(true, true, "## [Unreleased]\n\n### Added\n- `Greeter#wave`.\n");
        assertThat(verifyAgainstBaseline().succeeded())
                .as("an added method is compatible and needs no listing")
                .isTrue();

        writeLibrary(false, false, "## [Unreleased]\n\n### Changed\n- Nothing breaking.\n");
        ConsumerProject.MavenRun unlisted = verifyAgainstBaseline();
        assertThat(unlisted.succeeded()).as(unlisted.output()).isFalse();
        assertThat(unlisted.output())
                .contains("dev.agentpersistence.apigate.Greeter.bye():METHOD_REMOVED")
                .contains("[api-changes] not listed in the newest section of CHANGELOG.md ([Unreleased])")
                .contains("- Breaking: `dev.agentpersistence.apigate.Greeter#bye` ...");

        writeLibrary(
                false,
                false,
                "## [Unreleased]\n\n### Changed\n- Nothing breaking.\n\n## [1.0.0]\n\n### Removed\n"
                        + "- Breaking: `dev.agentpersistence.apigate.Greeter#bye`, listed in the wrong section.\n");
        ConsumerProject.MavenRun olderSection = verifyAgainstBaseline();
        assertThat(olderSection.succeeded()).as(olderSection.output()).isFalse();

        writeLibrary(
                false,
                false,
                "## [Unreleased]\n\n### Removed\n"
                        + "- Breaking: `dev.agentpersistence.apigate.Greeter#bye` is gone; `hello` says it all.\n");
        ConsumerProject.MavenRun listed = verifyAgainstBaseline();
        assertThat(listed.succeeded()).as(listed.output()).isTrue();
        assertThat(listed.output())
                .contains("[api-changes] breaking change of dev.agentpersistence.apigate.Greeter#bye accepted: "
                        + "CHANGELOG.md lists it under [Unreleased]");
    }

    private static ConsumerProject.MavenRun verifyAgainstBaseline() throws IOException, InterruptedException {
        return ConsumerProject.run(FIXTURE, "verify", "-Drevision=1.1.0", "-Djapicmp.baseline=1.0.0");
    }

    /**
     * The library: a parent reference to this build's POM, this build's gate script in {@code .mvn}, the changelog, and
     * {@code Greeter} with {@code hello()} and optionally {@code bye()} and {@code wave()}.
     */
    private static void writeLibrary(boolean bye, boolean wave, String changes) throws IOException {
        Files.createDirectories(FIXTURE.resolve(".mvn"));
        Files.copy(
                ReactorModules.ROOT.resolve(".mvn/api-changes.groovy"),
                FIXTURE.resolve(".mvn/api-changes.groovy"),
                StandardCopyOption.REPLACE_EXISTING);
        Path parent = FIXTURE.relativize(ReactorModules.ROOT.resolve("pom.xml"));
        Files.writeString(FIXTURE.resolve("pom.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <parent>
                    <groupId>dev.agentpersistence</groupId>
                    <artifactId>agent-persistence-parent</artifactId>
                    <version>%s</version>
                    <relativePath>%s</relativePath>
                  </parent>
                  <groupId>dev.agentpersistence.apigate</groupId>
                  <artifactId>api-gate-fixture</artifactId>
                  <version>${revision}</version>
                  <properties>
                    <revision>1.0.0</revision>
                    <module.name>dev.agentpersistence.apigate</module.name>
                  </properties>
                </project>
                """.formatted(ConsumerProject.VERSION, parent));
        Files.writeString(FIXTURE.resolve("CHANGELOG.md"), "# Changelog\n\n" + changes);
        var greeter = new StringBuilder("package dev.agentpersistence.apigate;\n\n/** Greets. */\n"
                + "public final class Greeter {\n" + method("hello"));
        if (bye) {
            greeter.append(method("bye"));
        }
        if (wave) {
            greeter.append(method("wave"));
        }
        Path source = FIXTURE.resolve(GREETER);
        Files.createDirectories(source.getParent());
        Files.writeString(source, greeter.append("}\n").toString());
    }

    private static String method(String name) {
        return "    /** Says " + name + ". */\n    public String " + name + "() {\n        return \"" + name
                + "\";\n    }\n";
    }
}
