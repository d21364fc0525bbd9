/**
 * Jackson 3 applications on agent-persistence: {@link dev.agentpersistence.jackson3.Jackson3Mapping} applies the
 * application's own {@code tools.jackson} mapper to checkpoint state, inputs and pipeline states, over exact tree
 * conversions ({@link dev.agentpersistence.jackson3.Jackson3Nodes}). Nothing here changes the stored form.
 */
package dev.agentpersistence.jackson3;
