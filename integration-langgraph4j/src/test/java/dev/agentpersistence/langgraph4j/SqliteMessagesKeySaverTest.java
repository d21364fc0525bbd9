package dev.agentpersistence.langgraph4j;

import dev.agentpersistence.CheckpointFilter;
import dev.agentpersistence.PersistenceStorageProvider;

/** The whole saver contract again, with the {@code messages} list stored as the message history. */
class SqliteMessagesKeySaverTest extends SqliteSaverTest {
    @Override
    protected AgentPersistenceSaver newSaver(PersistenceStorageProvider<CheckpointFilter> provider) {
        return AgentPersistenceSaver.builder(provider).messagesKey("messages").build();
    }
}
