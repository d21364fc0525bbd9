/** How the commands read stores and print what they find; not an API. */
package dev.agentpersistence.cli.internal;
