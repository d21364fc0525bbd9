package dev.agentpersistence.redaction;

import dev.agentpersistence.RedactedException;
import dev.agentpersistence.spi.ProviderConfig;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Hides credentials in text and in exception chains.
 *
 * <p>{@link #redactText(String)} (also {@link ProviderConfig#redact(String)}) hides, wherever they appear:
 *
 * <ul>
 *   <li>the user information of {@code scheme://userinfo@host}: everything between {@code ://} and the authority's
 *       <em>last</em> {@code @} (the last one followed by a host, up to white space or, when the whole text starts with
 *       the URL, the end), so a password holding any unencoded reserved character, {@code /} and {@code @} included, or
 *       a space is hidden whole; the user name before the first {@code :} stays, unless it holds an {@code @} itself;
 *   <li>the value of every parameter whose name contains {@code password}, {@code passwd}, {@code pwd}, {@code secret},
 *       {@code token}, {@code key} or {@code credential} (any case), in query strings ({@code ?name=value&…}, up to the
 *       next {@code &}) and in {@code ;name=value} lists (up to the next {@code ;}, or a whole {@code {…}} value).
 * </ul>
 *
 * <p>An instance also knows the secret values of the settings it was made from (the password of a URL, its credential
 * parameters, or secrets given directly) and replaces them wherever they occur, so a driver message that quotes a
 * password without its URL is hidden too. Values shorter than {@value #MIN_SECRET_LENGTH} characters are hidden only
 * where the patterns above find them. {@link #redact(Throwable)} applies both to every message of an exception chain.
 */
public final class Redactor {
    /** Shortest secret value replaced wherever it occurs. */
    public static final int MIN_SECRET_LENGTH = 4;

    private static final String HIDDEN = "****";
    private static final String CREDENTIAL_NAME =
            "[\\w.\\-]*(?:password|passwd|pwd|secret|token|key|credential)[\\w.\\-]*";
    /** {@code ?name=value} / {@code &name=value}: the value runs to the next {@code &}, {@code #} or space. */
    private static final Pattern QUERY_PARAMETER = Pattern.compile("(?i)([?&]" + CREDENTIAL_NAME + "=)([^&#\\s]*)");
    /**
     * {@code ;name=value} (JDBC lists) or a bare {@code name=value}: to the next {@code ;} or space, or a {@code {…}}
     * value.
     */
    private static final Pattern LIST_PARAMETER =
            Pattern.compile("(?i)((?:^|[;\\s])" + CREDENTIAL_NAME + "=)(\\{[^}]*}|[^;#\\s]*)");
    /** A text starting with {@code scheme://} (a URL given as a setting), also {@code jdbc:x://}. */
    private static final Pattern WHOLE_URL = Pattern.compile("[A-Za-z][A-Za-z0-9+.\\-]*(?::[A-Za-z0-9+.\\-]+)*://");

    /** What a host part may hold: names, IPv4 and bracketed IPv6 addresses, ports, comma-separated lists. */
    private static final String HOST_CHARACTERS = "abcdefghijklmnopqrstuvwxyz0123456789.-_~%[]:,";

    private static final Pattern CREDENTIAL_NAME_ONLY = Pattern.compile("(?i)" + CREDENTIAL_NAME);
    private static final Redactor PATTERNS_ONLY = new Redactor(List.of());

    private final List<String> secrets;

    private Redactor(List<String> secrets) {
        this.secrets = secrets;
    }

    /** A redactor that applies {@link #redactText} only. */
    public static Redactor patternsOnly() {
        return PATTERNS_ONLY;
    }

    /**
     * A redactor that also hides the credentials found in {@code texts} (connection URLs, endpoints) wherever their
     * values appear, raw or percent-decoded. {@code null} texts are skipped.
     */
    public static Redactor forCredentialsIn(String... texts) {
        Objects.requireNonNull(texts, "texts");
        var found = new LinkedHashSet<String>();
        for (String text : texts) {
            if (text != null) {
                scan(text, value -> addSecret(found, value));
            }
        }
        return PATTERNS_ONLY.with(found);
    }

    /**
     * Whether a setting or parameter named {@code name} holds a credential by the rule this class hides parameters by
     * (the name contains password, passwd, pwd, secret, token, key or credential).
     */
    public static boolean isCredentialName(String name) {
        return name != null && CREDENTIAL_NAME_ONLY.matcher(name).matches();
    }

    /** This redactor, also hiding {@code secret} (a password or key given as a setting) wherever it appears. */
    public Redactor andSecret(String secret) {
        if (secret == null) {
            return this;
        }
        var found = new LinkedHashSet<String>();
        addSecret(found, secret);
        return with(found);
    }

    /** {@code text} with URL credentials and credential parameters hidden; {@code null} stays {@code null}. */
    public static String redactText(String text) {
        return text == null ? null : scan(text, value -> {});
    }

    /** {@code text} with the patterns of {@link #redactText} and every known secret value hidden. */
    public String redact(String text) {
        if (text == null) {
            return null;
        }
        String result = redactText(text);
        for (String secret : secrets) {
            result = result.replace(secret, HIDDEN);
        }
        return result;
    }

    /**
     * {@code failure} itself when no message in its chain (causes and suppressed exceptions) shows a credential;
     * otherwise a copy of the chain made of {@link RedactedException}s with the same stack traces and hidden
     * credentials. Use it on every cause chained to an exception this library throws.
     */
    public Throwable redact(Throwable failure) {
        if (failure == null || !leaks(failure, Collections.newSetFromMap(new IdentityHashMap<>()))) {
            return failure;
        }
        return copy(failure, Collections.newSetFromMap(new IdentityHashMap<>()));
    }

    private Redactor with(Set<String> more) {
        var all = new LinkedHashSet<>(secrets);
        all.addAll(more);
        var sorted = new ArrayList<>(all);
        sorted.sort(Comparator.comparingInt(String::length).reversed());
        return new Redactor(List.copyOf(sorted));
    }

    private boolean leaks(Throwable failure, Set<Throwable> seen) {
        for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
            String message = t.getMessage();
            if (message != null && !redact(message).equals(message)) {
                return true;
            }
            for (Throwable suppressed : t.getSuppressed()) {
                if (leaks(suppressed, seen)) {
                    return true;
                }
            }
        }
        return false;
    }

    private Throwable copy(Throwable failure, Set<Throwable> seen) {
        if (failure == null || !seen.add(failure)) {
            return null;
        }
        String type = failure instanceof RedactedException redacted
                ? redacted.originalType()
                : failure.getClass().getName();
        var copy = new RedactedException(type, redact(failure.getMessage()), copy(failure.getCause(), seen));
        copy.setStackTrace(failure.getStackTrace());
        for (Throwable suppressed : failure.getSuppressed()) {
            Throwable hidden = copy(suppressed, seen);
            if (hidden != null) {
                copy.addSuppressed(hidden);
            }
        }
        return copy;
    }

    /** Hides the patterns in {@code text}, handing every hidden value to {@code found}. */
    private static String scan(String text, Consumer<String> found) {
        String result = replace(QUERY_PARAMETER, text, found);
        result = replace(LIST_PARAMETER, result, found);
        return hideUserInfo(result, found);
    }

    private static String replace(Pattern pattern, String text, Consumer<String> found) {
        Matcher matcher = pattern.matcher(text);
        var out = new StringBuilder();
        while (matcher.find()) {
            found.accept(matcher.group(2));
            matcher.appendReplacement(out, Matcher.quoteReplacement(matcher.group(1) + HIDDEN));
        }
        matcher.appendTail(out);
        return out.toString();
    }

    private static String hideUserInfo(String text, Consumer<String> found) {
        var out = new StringBuilder();
        int copied = 0;
        int scheme = text.indexOf("://");
        // a text that is one URL (a setting's value) may hold spaces in its password
        boolean wholeUrl = WHOLE_URL.matcher(text).lookingAt();
        int first = scheme;
        while (scheme >= 0) {
            int start = scheme + 3;
            int at = userInfoEnd(text, start, wholeUrl && scheme == first);
            if (at >= start) {
                out.append(text, copied, start).append(hiddenUserInfo(text.substring(start, at), found));
                copied = at;
            }
            scheme = text.indexOf("://", Math.max(start, copied));
        }
        return copied == 0 ? text : out.append(text, copied, text.length()).toString();
    }

    /**
     * Where the user information of the URL whose authority starts at {@code start} ends: the last {@code @} before the
     * first {@code /}, or, when a {@code :} comes before that {@code /} (a password follows), the last {@code @} of the
     * URL followed by a host (so a password holding an unencoded {@code /} is hidden whole); {@code -1} when there is
     * none.
     */
    private static int userInfoEnd(String text, int start, boolean inWholeUrl) {
        int end = start;
        while (end < text.length() && !endsUrl(text.charAt(end), inWholeUrl)) {
            end++;
        }
        int slash = text.indexOf('/', start);
        int authorityEnd = slash < 0 || slash > end ? end : slash;
        int at = text.lastIndexOf('@', authorityEnd - 1);
        int colon = text.indexOf(':', start);
        if (authorityEnd < end && colon >= start && colon < authorityEnd) {
            for (int candidate = text.lastIndexOf('@', end - 1);
                    candidate >= authorityEnd;
                    candidate = text.lastIndexOf('@', candidate - 1)) {
                if (hostFollows(text, candidate + 1, end)) {
                    return candidate;
                }
            }
        }
        return at >= start ? at : -1;
    }

    /** Whether a host (names, addresses, ports, lists of them) runs from {@code from} to a path, query or the end. */
    private static boolean hostFollows(String text, int from, int end) {
        int i = from;
        while (i < end && HOST_CHARACTERS.indexOf(Character.toLowerCase(text.charAt(i))) >= 0) {
            i++;
        }
        return i > from && (i == end || "/?#;".indexOf(text.charAt(i)) >= 0);
    }

    private static boolean endsUrl(char c, boolean inWholeUrl) {
        return !inWholeUrl && (c == '"' || c == '\'' || c == '<' || c == '>' || Character.isWhitespace(c));
    }

    private static String hiddenUserInfo(String userInfo, Consumer<String> found) {
        int colon = userInfo.indexOf(':');
        String user = colon < 0 ? userInfo : userInfo.substring(0, colon);
        if (user.indexOf('@') >= 0) {
            found.accept(userInfo);
            return HIDDEN;
        }
        if (colon < 0) {
            return userInfo;
        }
        found.accept(userInfo.substring(colon + 1));
        return user + ":" + HIDDEN;
    }

    private static void addSecret(Set<String> secrets, String value) {
        String raw = value.startsWith("{") && value.endsWith("}") && value.length() > 1
                ? value.substring(1, value.length() - 1)
                : value;
        if (raw.length() < MIN_SECRET_LENGTH || raw.equals(HIDDEN)) {
            return;
        }
        secrets.add(raw);
        try {
            String decoded = URLDecoder.decode(raw, StandardCharsets.UTF_8);
            if (decoded.length() >= MIN_SECRET_LENGTH) {
                secrets.add(decoded);
            }
        } catch (IllegalArgumentException notEncoded) {
            // the raw value is all there is
        }
    }
}
