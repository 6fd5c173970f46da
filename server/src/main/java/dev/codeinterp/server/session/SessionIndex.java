package dev.codeinterp.server.session;

import dev.codeinterp.model.rest.SessionList;
import dev.codeinterp.model.rest.SessionState;
import dev.codeinterp.model.rules.SessionTitles;
import dev.codeinterp.server.store.SessionDirectory;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sessions as people find them again: described with their titles, renamed, and listed for the
 * client (API key) that owns them, a page at a time. Reads the store, so it answers alike on
 * every node and never resumes a suspended session.
 */
public final class SessionIndex {
    public static final int DEFAULT_PAGE = 50;
    public static final int MAX_PAGE = 200;
    /** A cursor: the last listed session's activity (ms) and id, as {@code 1700000000000.n1.AbC}. */
    private static final Pattern CURSOR = Pattern.compile("(\\d{1,18})\\.([A-Za-z0-9._-]{1,64})");

    private final SessionManager sessions;
    private final SessionDirectory directory;

    public SessionIndex(SessionManager sessions, SessionDirectory directory) {
        this.sessions = sessions;
        this.directory = directory;
    }

    /** {@code GET /api/v1/sessions/{id}}: the session {@code key} opens, with its title; otherwise {@link SessionNotFoundException}. */
    public SessionState describe(String id, SessionKey key) {
        return sessions.describe(id, key).withTitle(directory.title(id).orElse(null));
    }

    /** Names the session {@code key} opens: the title as {@link SessionTitles#clean} keeps it (nothing left clears it). */
    public SessionState retitle(String id, SessionKey key, String title) {
        SessionState now = sessions.describe(id, key);
        String kept = SessionTitles.clean(title);
        directory.setTitle(id, kept);
        return now.withTitle(kept);
    }

    /**
     * A page of {@code clientId}'s open sessions, the most recently active first, from after the
     * cursor {@code after} (null: the first page). A bad limit or cursor is {@link IllegalArgumentException}.
     */
    public SessionList owned(String clientId, int limit, String after) {
        if (limit < 1 || limit > MAX_PAGE) {
            throw new IllegalArgumentException("limit must be 1 to " + MAX_PAGE);
        }
        SessionDirectory.Cursor cursor = after == null ? null : cursor(after);
        List<SessionDirectory.Listed> rows = directory.owned(clientId, limit + 1, cursor);
        List<SessionState> page = new ArrayList<>();
        for (SessionDirectory.Listed row : rows.subList(0, Math.min(limit, rows.size()))) {
            String state = row.lost() != null ? SessionState.LOST : row.suspended() ? SessionState.SUSPENDED : SessionState.RUNNING;
            page.add(new SessionState(row.id(), row.runtime(), state, row.createdAt(), row.lastActive(), row.title()));
        }
        SessionState last = page.isEmpty() ? null : page.get(page.size() - 1);
        return new SessionList(page, rows.size() > limit ? last.lastActive() + "." + last.id() : null);
    }

    private static SessionDirectory.Cursor cursor(String after) {
        Matcher m = CURSOR.matcher(after);
        if (!m.matches()) {
            throw new IllegalArgumentException("'after' is not a cursor this server gave (use the 'next' of the page before)");
        }
        return new SessionDirectory.Cursor(Long.parseLong(m.group(1)), m.group(2));
    }
}
