package dev.agentpersistence.storage;

import dev.agentpersistence.history.RetentionPolicy;
import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.settings.SettingDeclarations;
import java.util.ArrayList;
import java.util.List;

/**
 * The settings of this module that no factory declares: those every provider shares ({@link StorageSettings#SETTINGS})
 * and the retention policy's ({@link RetentionPolicy}). Registered for {@link java.util.ServiceLoader}.
 */
public final class SharedSettingDeclarations implements SettingDeclarations {

    @Override
    public List<Setting<?>> settings() {
        var settings = new ArrayList<Setting<?>>(StorageSettings.SETTINGS);
        settings.add(RetentionPolicy.KEEP_LATEST);
        settings.add(RetentionPolicy.MAX_AGE);
        return List.copyOf(settings);
    }
}
