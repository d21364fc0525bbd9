package dev.agentpersistence;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The BOM manages what users add beside a provider, at the versions the build pins. */
class BomTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern PROPERTY = Pattern.compile("<([a-z0-9.-]+\\.version)>([^<]+)</\\1>");

    @Test
    void theBomManagesTheDriversAndClientsAtTheVersionsOfTheBuild() throws Exception {
        String bom = Files.readString(ROOT.resolve("bom/pom.xml"));
        Map<String, String> parent = properties(Files.readString(ROOT.resolve("pom.xml")));
        Map<String, String> managed = properties(bom);
        assertThat(managed).isNotEmpty();
        managed.forEach((name, version) ->
                assertThat(version).as("%s in the BOM and the parent POM", name).isEqualTo(parent.get(name)));
        for (String artifact : new String[] {"sqlite-jdbc", "postgresql", "mariadb-java-client", "h2", "jedis"}) {
            assertThat(bom).as("the BOM manages %s", artifact).contains("<artifactId>" + artifact + "</artifactId>");
        }
        assertThat(bom).contains("<groupId>software.amazon.awssdk</groupId><artifactId>bom</artifactId>");
    }

    @Test
    void theBomManagesTheFrameworkOfEveryIntegrationModule() throws Exception {
        String bom = Files.readString(ROOT.resolve("bom/pom.xml"));
        var provided = Pattern.compile(
                "<groupId>([^<]+)</groupId>\\s*<artifactId>([^<]+)</artifactId>\\s*" + "<scope>provided</scope>");
        int frameworks = 0;
        try (var modules = Files.list(ROOT)) {
            for (Path module : modules.filter(
                            dir -> dir.getFileName().toString().startsWith("integration-"))
                    .toList()) {
                var matcher = provided.matcher(Files.readString(module.resolve("pom.xml")));
                while (matcher.find()) {
                    frameworks++;
                    assertThat(bom)
                            .as("the BOM manages %s:%s of %s", matcher.group(1), matcher.group(2), module)
                            .contains("<groupId>" + matcher.group(1) + "</groupId><artifactId>" + matcher.group(2)
                                    + "</artifactId>");
                }
            }
        }
        assertThat(frameworks)
                .as("provided framework dependencies of the integration modules")
                .isGreaterThan(4);
    }

    private static Map<String, String> properties(String pom) {
        var properties = new LinkedHashMap<String, String>();
        var matcher = PROPERTY.matcher(pom);
        while (matcher.find()) {
            properties.putIfAbsent(matcher.group(1), matcher.group(2));
        }
        return properties;
    }
}
