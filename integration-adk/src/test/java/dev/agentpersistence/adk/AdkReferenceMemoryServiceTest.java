package dev.agentpersistence.adk;

import com.google.adk.memory.BaseMemoryService;
import com.google.adk.memory.InMemoryMemoryService;

/** The memory scenarios against ADK's own {@code InMemoryMemoryService}. */
class AdkReferenceMemoryServiceTest extends MemoryScenarios {
    private final InMemoryMemoryService memory = new InMemoryMemoryService();

    @Override
    protected BaseMemoryService memory() {
        return memory;
    }
}
