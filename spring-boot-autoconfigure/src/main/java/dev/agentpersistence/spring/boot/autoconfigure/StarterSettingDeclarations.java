package dev.agentpersistence.spring.boot.autoconfigure;

import dev.agentpersistence.settings.Setting;
import dev.agentpersistence.settings.SettingDeclarations;
import java.util.List;

/** The starter's settings ({@link StarterSettings}), registered for {@link java.util.ServiceLoader}. */
public final class StarterSettingDeclarations implements SettingDeclarations {

    @Override
    public List<Setting<?>> settings() {
        return StarterSettings.SETTINGS;
    }
}
