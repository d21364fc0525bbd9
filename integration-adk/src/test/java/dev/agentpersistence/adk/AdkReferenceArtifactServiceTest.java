package dev.agentpersistence.adk;

import com.google.adk.artifacts.BaseArtifactService;
import com.google.adk.artifacts.InMemoryArtifactService;

/** The artifact scenarios against ADK's own {@code InMemoryArtifactService}. */
class AdkReferenceArtifactServiceTest extends ArtifactScenarios {
    private final InMemoryArtifactService artifacts = new InMemoryArtifactService();

    @Override
    protected BaseArtifactService artifacts() {
        return artifacts;
    }
}
