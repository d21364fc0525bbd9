/**
 * Spring Boot auto-configuration of agent-persistence: the storage provider chosen from the {@code agent.persistence.*}
 * properties by the library's own discovery rules, reusing the application's {@code DataSource}, {@code S3Client} or
 * {@code UnifiedJedis}; {@code AgentPersistence} and {@code RollbackToolRegistry} beans; Micrometer metrics; an
 * actuator health indicator and info contributor.
 */
package dev.agentpersistence.spring.boot.autoconfigure;
