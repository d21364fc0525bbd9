package dev.agentpersistence.adk.internal;

import dev.agentpersistence.Identifiers;
import java.util.Objects;

/**
 * The agent ids ADK data is stored under, one namespace per kind:
 *
 * <ul>
 *   <li>{@code adk/session/<app>/<user>/<session>}: a session's creation record and events;
 *   <li>{@code adk/app-state/<app>} and {@code adk/user-state/<app>/<user>}: the shared state deltas;
 *   <li>{@code adk/artifact/<app>/<user>/<session>/<file>} and {@code adk/user-artifact/<app>/<user>/<file>}: the
 *       versions of an artifact;
 *   <li>{@code adk/memory/<app>/<user>/<session>}: a session added to memory.
 * </ul>
 *
 * <p>Each ADK id is escaped ({@link #escape}) so that it contains no {@code /}: the mapping is injective, and ids with
 * characters {@link Identifiers} refuses (control characters, unpaired surrogates) are stored too.
 */
public final class AdkIds {
    /** The prefix of every agent id this module writes. */
    public static final String ROOT = "adk/";

    private static final String SESSION = ROOT + "session/";
    private static final String APP_STATE = ROOT + "app-state/";
    private static final String USER_STATE = ROOT + "user-state/";
    private static final String ARTIFACT = ROOT + "artifact/";
    private static final String USER_ARTIFACT = ROOT + "user-artifact/";
    private static final String MEMORY = ROOT + "memory/";

    private AdkIds() {}

    /** The agent id of a session. */
    public static String session(String app, String user, String session) {
        return valid(SESSION + path(app, user) + escape(session));
    }

    /** What every session agent id of {@code app} and {@code user} starts with. */
    public static String sessionsOf(String app, String user) {
        return SESSION + path(app, user);
    }

    /** The agent id of an app's shared state. */
    public static String appState(String app) {
        return valid(APP_STATE + escape(app));
    }

    /** The agent id of a user's shared state within an app. */
    public static String userState(String app, String user) {
        return valid(USER_STATE + escape(app) + "/" + escape(user));
    }

    /** The agent id of a session-scoped artifact. */
    public static String artifact(String app, String user, String session, String file) {
        return valid(ARTIFACT + path(app, user) + escape(session) + "/" + escape(file));
    }

    /** What every session-scoped artifact agent id of a session starts with. */
    public static String artifactsOf(String app, String user, String session) {
        return ARTIFACT + path(app, user) + escape(session) + "/";
    }

    /** The agent id of a user-scoped artifact (a {@code user:} file name). */
    public static String userArtifact(String app, String user, String file) {
        return valid(USER_ARTIFACT + path(app, user) + escape(file));
    }

    /** What every user-scoped artifact agent id of a user starts with. */
    public static String userArtifactsOf(String app, String user) {
        return USER_ARTIFACT + path(app, user);
    }

    /** The agent id of a session added to memory. */
    public static String memory(String app, String user, String session) {
        return valid(MEMORY + path(app, user) + escape(session));
    }

    /** What every memory agent id of a user starts with. */
    public static String memoriesOf(String app, String user) {
        return MEMORY + path(app, user);
    }

    private static String path(String app, String user) {
        return escape(app) + "/" + escape(user) + "/";
    }

    private static String valid(String agentId) {
        return Identifiers.requireValid(agentId, "ADK agent id");
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
