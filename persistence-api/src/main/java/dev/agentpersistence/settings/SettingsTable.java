package dev.agentpersistence.settings;

import java.util.List;
import java.util.Objects;

/**
 * The Markdown table of a list of {@link Setting}s, as the READMEs show it (a test keeps every README table equal to
 * the declarations): key, environment variable, type, default and description.
 */
public final class SettingsTable {
    private SettingsTable() {}

    /** The table, one row per setting in the given order, ending with a line break. */
    public static String markdown(List<? extends Setting<?>> settings) {
        Objects.requireNonNull(settings, "settings");
        var table = new StringBuilder("| key | environment | type | default | description |\n|---|---|---|---|---|\n");
        for (Setting<?> setting : settings) {
            table.append("| `")
                    .append(setting.key())
                    .append("` | `")
                    .append(setting.environmentName())
                    .append("` | ")
                    .append(setting.type().replace("|", "\\|"))
                    .append(" | ")
                    .append(
                            setting.isSecret()
                                    ? "secret"
                                    : setting.defaultText()
                                            .map(d -> "`" + d + "`")
                                            .orElse("none"))
                    .append(" | ")
                    .append(setting.description().replace("|", "\\|"))
                    .append(" |\n");
        }
        return table.toString();
    }
}
