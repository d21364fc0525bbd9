package dev.agentpersistence.settings;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;

/**
 * Configuration metadata of a list of {@link Setting}s in the format Spring Boot and IDEs read from
 * {@code META-INF/spring-configuration-metadata.json}: one property per setting with its type, description and default
 * (never a secret's), and the allowed values of a choice as hints. Each provider module ships the file made from its
 * declarations; a test keeps the files equal to them.
 */
public final class SettingsMetadata {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SettingsMetadata() {}

    /** The metadata document of {@code settings}, in the given order, ending with a line break. */
    public static String springConfigurationMetadata(List<? extends Setting<?>> settings) {
        Objects.requireNonNull(settings, "settings");
        ObjectNode root = JSON.createObjectNode();
        var properties = root.putArray("properties");
        var hints = root.putArray("hints");
        for (Setting<?> setting : settings) {
            ObjectNode property = properties
                    .addObject()
                    .put("name", setting.key())
                    .put("type", javaType(setting))
                    .put("description", setting.description());
            Object example = setting.defaultValue().orElse(null);
            if (setting.isSecret() || example == null) {
                // no default to show
            } else if (example instanceof Boolean flag) {
                property.put("defaultValue", flag);
            } else if (example instanceof Integer || example instanceof Long) {
                property.put("defaultValue", ((Number) example).longValue());
            } else {
                property.put("defaultValue", setting.defaultText().orElseThrow());
            }
            if (setting.type().contains("|")) {
                var values = hints.addObject().put("name", setting.key()).putArray("values");
                for (String choice : setting.type().split("\\|")) {
                    values.addObject().put("value", choice);
                }
            }
        }
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("metadata of " + settings + " could not be written", e);
        }
    }

    private static String javaType(Setting<?> setting) {
        Object example = setting.defaultValue().orElse(null);
        return switch (setting.type()) {
            case "boolean" -> "java.lang.Boolean";
            case "integer" -> example instanceof Long ? "java.lang.Long" : "java.lang.Integer";
            case "duration" -> "java.time.Duration";
            case "list of integers" -> "java.util.List<java.lang.Integer>";
            case "list of strings" -> "java.util.List<java.lang.String>";
            default -> "java.lang.String"; // strings, choices, sizes (16MiB), paths and URIs as written
        };
    }
}
