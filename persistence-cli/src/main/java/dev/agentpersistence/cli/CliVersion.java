package dev.agentpersistence.cli;

import picocli.CommandLine.IVersionProvider;

/** The version printed by {@code --version}: the jar's implementation version when packaged. */
final class CliVersion implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = PersistenceCli.class.getPackage().getImplementationVersion();
        return new String[] {"agent-persistence " + (version == null ? "(development build)" : version)};
    }
}
