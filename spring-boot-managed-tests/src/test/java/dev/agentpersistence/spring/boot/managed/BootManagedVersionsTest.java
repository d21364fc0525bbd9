package dev.agentpersistence.spring.boot.managed;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * This module really runs under Spring Boot's dependency management: each library both Boot and the root POM manage is
 * on the test class path in Boot's version (a property of {@code spring-boot-dependencies}, passed on by Surefire), and
 * those versions are not the root POM's, so the module cannot silently run with ours. The few versions Boot does not
 * manage, which this module's POM repeats, are the root POM's.
 */
class BootManagedVersionsTest {
    private static final Path ROOT_POM = Path.of("..", "pom.xml");
    private static final Path MODULE_POM = Path.of("pom.xml");

    /** A library both manage: a class of its jar, its artifact, Boot's version property, the root POM's property. */
    private record Library(Class<?> type, String artifactId, String bootProperty, String rootProperty) {}

    private static final List<Library> LIBRARIES = List.of(
            new Library(org.sqlite.JDBC.class, "sqlite-jdbc", "boot.sqlite-jdbc.version", "sqlite-jdbc.version"),
            new Library(
                    com.zaxxer.hikari.HikariDataSource.class, "HikariCP", "boot.hikaricp.version", "hikaricp.version"),
            new Library(
                    com.fasterxml.jackson.databind.ObjectMapper.class,
                    "jackson-databind",
                    "boot.jackson-2.version",
                    "jackson.version"),
            new Library(
                    tools.jackson.databind.json.JsonMapper.class,
                    "jackson-databind",
                    "boot.jackson-3.version",
                    "jackson3.version"),
            new Library(redis.clients.jedis.UnifiedJedis.class, "jedis", "boot.jedis.version", "jedis.version"),
            new Library(org.junit.jupiter.api.Test.class, "junit-jupiter-api", "boot.junit.version", "junit.version"));

    @Test
    void theLibrariesBothManageAreOnTheClassPathInBootsVersions() throws Exception {
        String rootPom = Files.readString(ROOT_POM);
        var differing = new ArrayList<String>();
        for (Library library : LIBRARIES) {
            String boot = System.getProperty(library.bootProperty(), "");
            assertThat(boot).as("%s (set by Surefire)", library.bootProperty()).isNotBlank();
            String found = versionOnClassPath(library);
            assertThat(found)
                    .as("%s on the test class path", library.artifactId())
                    .isEqualTo(boot);
            String ours = property(rootPom, library.rootProperty());
            if (!found.equals(ours)) {
                differing.add(library.artifactId() + " " + found + " (ours " + ours + ")");
            }
        }
        assertThat(differing)
                .as("libraries whose Boot version is not the root POM's: the ones that tell the two setups apart")
                .anySatisfy(line -> assertThat(line).startsWith("sqlite-jdbc "))
                .anySatisfy(line -> assertThat(line).startsWith("HikariCP "))
                .anySatisfy(line -> assertThat(line).startsWith("jackson-databind "));
    }

    @Test
    void theVersionsBootDoesNotManageAreTheRootPomsOwn() throws IOException {
        String rootPom = Files.readString(ROOT_POM);
        String modulePom = Files.readString(MODULE_POM);
        for (String name : List.of("spring-ai.version", "jqwik.version")) {
            assertThat(property(modulePom, name)).as(name).isEqualTo(property(rootPom, name));
        }
        assertThat(ownVersion(modulePom)).as("this module's version").isEqualTo(ownVersion(rootPom));
    }

    /** The version in the name of the jar {@code library}'s class was loaded from ({@code artifact-version.jar}). */
    private static String versionOnClassPath(Library library) throws URISyntaxException {
        Path jar = Path.of(library.type()
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        String name = jar.getFileName().toString();
        String prefix = library.artifactId() + "-";
        assertThat(name).as("the jar of %s", library.type()).startsWith(prefix).endsWith(".jar");
        return name.substring(prefix.length(), name.length() - ".jar".length());
    }

    private static String property(String pom, String name) {
        Matcher matcher =
                Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</").matcher(pom);
        assertThat(matcher.find()).as("<%s> in the POM", name).isTrue();
        return matcher.group(1).trim();
    }

    /** The version the POM gives itself: the first {@code <version>} after its parent block. */
    private static String ownVersion(String pom) {
        String withoutParent = pom.replaceFirst("(?s)<parent>.*?</parent>", "");
        Matcher matcher = Pattern.compile("<version>([^<]+)</version>").matcher(withoutParent);
        assertThat(matcher.find()).as("the POM's own version").isTrue();
        return matcher.group(1).trim();
    }
}
