package dev.agentpersistence.settings;

import java.util.List;

/**
 * Settings a module reads that no storage provider factory declares (the ones every provider shares, retention, a
 * framework integration's), so that discovery recognises every {@code agent.persistence.*} key. Found through
 * {@link java.util.ServiceLoader}: a module lists its implementation in
 * {@code META-INF/services/dev.agentpersistence.settings.SettingDeclarations}; one that fails to load never hides the
 * others. Implementations need a public no-argument constructor.
 */
public interface SettingDeclarations {

    /** The settings, each declared once elsewhere. */
    List<Setting<?>> settings();
}
