package dev.agentpersistence.adk;

import com.google.adk.sessions.BaseSessionService;
import com.google.adk.sessions.InMemorySessionService;

/** The scenarios against ADK's own {@code InMemorySessionService}: what ours must match. */
class AdkReferenceSessionServiceTest extends SessionScenarios {
    private final InMemorySessionService service = new InMemorySessionService();

    @Override
    protected BaseSessionService service() {
        return service;
    }
}
