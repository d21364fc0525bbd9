package dev.agentpersistence.examples.springboot;

import dev.agentpersistence.AgentPersistence;
import dev.agentpersistence.Message;
import dev.agentpersistence.SimpleAgentContext;
import java.util.Map;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** Saves a note an agent received as a new checkpoint of that agent, through the auto-configured facade. */
@RestController
class NotesController {
    private final AgentPersistence persistence;

    NotesController(AgentPersistence persistence) {
        this.persistence = persistence;
    }

    @PostMapping("/agents/{agentId}/notes")
    Map<String, Object> note(@PathVariable String agentId, @RequestBody String note) {
        var agent = new SimpleAgentContext(agentId);
        persistence
                .latestCheckpoint(agentId)
                .ifPresent(latest -> latest.messageHistory().forEach(agent::append));
        agent.append(Message.user(note));
        var checkpoint = persistence.createCheckpoint(agent, "note", null, null);
        return Map.of(
                "agentId",
                agentId,
                "checkpoint",
                checkpoint.checkpointId(),
                "version",
                checkpoint.version(),
                "messages",
                checkpoint.messageHistory().size());
    }
}
