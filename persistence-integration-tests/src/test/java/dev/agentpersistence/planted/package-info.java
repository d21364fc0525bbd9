/**
 * Small modules that break one architecture rule each, for {@code ArchitectureRulesTest}: test classes only, described
 * there as modules of their own, never part of the build's modules.
 */
package dev.agentpersistence.planted;
