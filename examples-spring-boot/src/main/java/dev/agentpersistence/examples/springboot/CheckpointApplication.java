package dev.agentpersistence.examples.springboot;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring Boot application using the agent-persistence starter: {@code POST /agents/{id}/notes} checkpoints an agent,
 * {@code /actuator/health} reports the store and {@code /actuator/prometheus} shows the checkpoint metrics.
 */
@SpringBootApplication
public class CheckpointApplication {
    /** Starts the application. */
    public static void main(String[] args) {
        SpringApplication.run(CheckpointApplication.class, args);
    }
}
