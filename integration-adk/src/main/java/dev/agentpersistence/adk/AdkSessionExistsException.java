package dev.agentpersistence.adk;

import dev.agentpersistence.PersistenceException;

/** {@code createSession} was asked for a session id that is already stored for the app and user. */
public class AdkSessionExistsException extends PersistenceException {
    private final String appName;
    private final String userId;
    private final String sessionId;

    public AdkSessionExistsException(String appName, String userId, String sessionId) {
        super("ADK session '" + sessionId + "' of user '" + userId + "' in app '" + appName + "' already exists");
        this.appName = appName;
        this.userId = userId;
        this.sessionId = sessionId;
    }

    /** The app of the existing session. */
    public String appName() {
        return appName;
    }

    /** The user of the existing session. */
    public String userId() {
        return userId;
    }

    /** The id asked for. */
    public String sessionId() {
        return sessionId;
    }
}
