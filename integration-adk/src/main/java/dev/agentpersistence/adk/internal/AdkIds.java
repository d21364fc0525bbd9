package dev.agentpersistence.adk.internal;

import dev.agentpersistence.AgentNamespace;
import dev.agentpersistence.Identifiers;
import dev.agentpersistence.memory.ConversationStore;
import java.util.Objects;

/**
 * The agent ids ADK data is stored under: the namespace {@link #NAMESPACE} ({@code @adk/...}, so no id given to the
 * facade or another kind of agent can name ADK data), and inside it one id space per kind:
 *
 * <ul>
 *   <li>{@code session/<app>/<user>/<session>}: a session's creation record and events;
 *   <li>{@code app-state/<app>} and {@code user-state/<app>/<user>}: the shared state deltas;
 *   <li>{@code artifact/<app>/<user>/<session>/<file>} and {@code user-artifact/<app>/<user>/<file>}: the versions of
 *       an artifact;
 *   <li>{@code memory/<app>/<user>/<session>}: a session added to memory.
 * </ul>
 *
 * <p>{@link #LEGACY} writes the ids of versions before namespaces ({@code adk/session/...}), to keep reading and
 * writing a store they wrote. Each ADK id is escaped ({@link #escape}) so that it contains no {@code /}: the mapping is
 * injective, and ids with characters {@link Identifiers} refuses (control characters, unpaired surrogates) are stored
 * too. Immutable.
 */
public final class AdkIds {
    /** The namespace of ADK data. */
    public static final AgentNamespace NAMESPACE = AgentNamespace.of("adk");

    /** The ids in {@link #NAMESPACE}: {@code @adk/<kind>/...}. */
    public static final AdkIds NAMESPACED = new AdkIds(NAMESPACE.prefix(), true);

    /** The ids of versions before namespaces: {@code adk/<kind>/...}. */
    public static final AdkIds LEGACY = new AdkIds("adk/", false);

    private static final String SESSION = "session/";
    private static final String APP_STATE = "app-state/";
    private static final String USER_STATE = "user-state/";
    private static final String ARTIFACT = "artifact/";
    private static final String USER_ARTIFACT = "user-artifact/";
    private static final String MEMORY = "memory/";

    private final String root;
    private final boolean namespaced;

    private AdkIds(String root, boolean namespaced) {
        this.root = root;
        this.namespaced = namespaced;
    }

    /** The ids of {@link #NAMESPACED} or, when {@code namespaced} is false, {@link #LEGACY}. */
    public static AdkIds of(boolean namespaced) {
        return namespaced ? NAMESPACED : LEGACY;
    }

    /** What every agent id these ids name starts with. */
    public String root() {
        return root;
    }

    /**
     * {@code conversations} set up so that conversation id {@code c} is stored as agent {@code root() + c}: in the
     * namespace, or (legacy) under the prefix {@code adk/}.
     */
    public ConversationStore.Builder configure(ConversationStore.Builder conversations) {
        return namespaced ? conversations.namespace(NAMESPACE) : conversations.agentIdPrefix(root);
    }

    /** The conversation id of a session, for a store {@linkplain #configure configured} by these ids. */
    public static String sessionConversation(String app, String user, String session) {
        return SESSION + path(app, user) + escape(session);
    }

    /** The conversation id of an app's shared state. */
    public static String appStateConversation(String app) {
        return APP_STATE + escape(app);
    }

    /** The conversation id of a user's shared state within an app. */
    public static String userStateConversation(String app, String user) {
        return USER_STATE + escape(app) + "/" + escape(user);
    }

    /** The agent id of a session. */
    public String session(String app, String user, String session) {
        return valid(root + sessionConversation(app, user, session));
    }

    /** What every session agent id of {@code app} and {@code user} starts with. */
    public String sessionsOf(String app, String user) {
        return root + SESSION + path(app, user);
    }

    /** The agent id of an app's shared state. */
    public String appState(String app) {
        return valid(root + appStateConversation(app));
    }

    /** The agent id of a user's shared state within an app. */
    public String userState(String app, String user) {
        return valid(root + userStateConversation(app, user));
    }

    /** The agent id of a session-scoped artifact. */
    public String artifact(String app, String user, String session, String file) {
        return valid(root + ARTIFACT + path(app, user) + escape(session) + "/" + escape(file));
    }

    /** What every session-scoped artifact agent id of a session starts with. */
    public String artifactsOf(String app, String user, String session) {
        return root + ARTIFACT + path(app, user) + escape(session) + "/";
    }

    /** The agent id of a user-scoped artifact (a {@code user:} file name). */
    public String userArtifact(String app, String user, String file) {
        return valid(root + USER_ARTIFACT + path(app, user) + escape(file));
    }

    /** What every user-scoped artifact agent id of a user starts with. */
    public String userArtifactsOf(String app, String user) {
        return root + USER_ARTIFACT + path(app, user);
    }

    /** The agent id of a session added to memory. */
    public String memory(String app, String user, String session) {
        return valid(root + MEMORY + path(app, user) + escape(session));
    }

    /** What every memory agent id of a user starts with. */
    public String memoriesOf(String app, String user) {
        return root + MEMORY + path(app, user);
    }

    @Override
    public String toString() {
        return "AdkIds[" + root + "]";
    }

    private static String path(String app, String user) {
        return escape(app) + "/" + escape(user) + "/";
    }

    private String valid(String agentId) {
        Identifiers.requireValid(agentId, "ADK agent id");
        return namespaced ? NAMESPACE.agentId(agentId.substring(root.length()), "ADK id") : agentId;
    }

    /**
     * {@code id} with {@code %}, {@code /}, control characters and unpaired surrogates written as {@code %XXXX} (the
     * UTF-16 unit in hexadecimal): injective, and the result never contains {@code /}.
     */
    public static String escape(String id) {
        Objects.requireNonNull(id, "id");
        var out = new StringBuilder(id.length());
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            boolean pairedHigh =
                    Character.isHighSurrogate(c) && i + 1 < id.length() && Character.isLowSurrogate(id.charAt(i + 1));
            if (pairedHigh) {
                out.append(c).append(id.charAt(++i));
            } else if (c == '%' || c == '/' || Character.isISOControl(c) || Character.isSurrogate(c)) {
                out.append('%').append(String.format("%04X", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** The id {@link #escape} turned into {@code escaped}. */
    public static String unescape(String escaped) {
        var out = new StringBuilder(escaped.length());
        for (int i = 0; i < escaped.length(); i++) {
            char c = escaped.charAt(i);
            if (c == '%' && i + 5 <= escaped.length()) {
                out.append((char) Integer.parseInt(escaped.substring(i + 1, i + 5), 16));
                i += 4;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
