/**
 * Chat memory over any provider: {@link dev.agentpersistence.memory.ConversationStore} keeps a conversation's whole
 * history and the window a framework hands to its model, appends only what is new in one atomic save, and never loses a
 * message to a concurrent writer; {@link dev.agentpersistence.memory.WindowRule} keeps tool calls and their results
 * paired at a window's head. The LangChain4j and Spring AI adapters are built on it.
 */
package dev.agentpersistence.memory;
