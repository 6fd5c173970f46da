package dev.codeinterp.web.conversations;

import dev.codeinterp.model.json.Json;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One conversation of the list, as this browser knows it: where it lives (its route), its mode, its
 * title (the first cell's first line until someone renames it), its state as last seen, when it was
 * last active, and the code of its cells (bounded), which the list's search looks through.
 */
public final class Conversation {
    public static final String SERVER = "server";
    public static final String LOCAL = "local";
    /** States: a server session's ({@code running}, {@code suspended}), or what became of it; a local one is {@code local}. */
    public static final String RUNNING = "running";
    public static final String SUSPENDED = "suspended";
    public static final String LOST = "lost";
    public static final String GONE = "gone";
    /** Not asked yet (a server conversation only just listed). */
    public static final String UNKNOWN = "unknown";
    /** What of a conversation's code is kept for search. */
    static final int MAX_CODE = 32 * 1024;

    final String route;
    final String mode;
    String title;
    boolean renamed;
    String state;
    double lastActive;
    String code;
    /** Opened on this page and nothing run in it yet: listed only while shown (every visit to "/" opens one). */
    boolean fresh;

    Conversation(String route, String mode, String title, boolean renamed, String state, double lastActive, String code) {
        this.route = route;
        this.mode = mode;
        this.title = ConversationTitle.bounded(title);
        this.renamed = renamed;
        this.state = state;
        this.lastActive = lastActive;
        this.code = code == null ? "" : code;
    }

    public String route() {
        return route;
    }

    public String mode() {
        return mode;
    }

    public boolean local() {
        return LOCAL.equals(mode);
    }

    /** The session's or the local conversation's id: the route without its prefix. */
    public String id() {
        return route.substring(3);
    }

    /** The title to show: its own, or a placeholder while it has none. */
    public String title() {
        return title.isEmpty() ? "New conversation" : title;
    }

    /** Whether it has a title of its own yet (from its first cell, a rename or the server). */
    public boolean titled() {
        return !title.isEmpty();
    }

    public String state() {
        return state;
    }

    public double lastActive() {
        return lastActive;
    }

    /** Whether {@code query} (lower case) is in its title or its cells' code. */
    public boolean matches(String query) {
        return query.isEmpty() || title().toLowerCase().contains(query) || code.toLowerCase().contains(query);
    }

    /** Whether the list shows it when it is not the one shown: not while it is a fresh, empty one. */
    boolean listed() {
        return !fresh || !code.isEmpty() || renamed;
    }

    /** Takes a cell's code: the title comes from the first, and every one is searchable. */
    boolean sawCode(String cellCode) {
        boolean changed = false;
        if (title.isEmpty() && !renamed) {
            title = ConversationTitle.fromCode(cellCode);
            changed = !title.isEmpty();
        }
        if (!code.contains(cellCode) && code.length() < MAX_CODE) {
            String more = (code.isEmpty() ? "" : "\n") + cellCode;
            code += more.length() > MAX_CODE - code.length() ? more.substring(0, MAX_CODE - code.length()) : more;
            changed = true;
        }
        return changed;
    }

    String toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("route", route);
        m.put("mode", mode);
        m.put("title", title);
        m.put("renamed", renamed);
        m.put("state", state);
        m.put("last_active", (long) lastActive);
        m.put("code", code);
        m.put("fresh", fresh);
        return Json.write(m);
    }

    /** The record {@link #toJson} wrote, or null if it is not one. */
    static Conversation fromJson(String json) {
        try {
            Map<String, Object> m = Json.parseObject(json);
            String route = (String) m.get("route");
            String mode = (String) m.get("mode");
            if (route == null || !ConversationRoutes.valid(route) || !(SERVER.equals(mode) || LOCAL.equals(mode))) {
                return null;
            }
            Object last = m.get("last_active");
            Conversation c = new Conversation(route, mode, (String) m.get("title"), Boolean.TRUE.equals(m.get("renamed")),
                    m.get("state") instanceof String s ? s : UNKNOWN, last instanceof Number n ? n.doubleValue() : 0,
                    (String) m.get("code"));
            c.fresh = Boolean.TRUE.equals(m.get("fresh"));
            return c;
        } catch (RuntimeException e) {
            return null; // a damaged record costs that one entry
        }
    }
}
