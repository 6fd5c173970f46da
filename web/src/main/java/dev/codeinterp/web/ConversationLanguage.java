package dev.codeinterp.web;

import dev.codeinterp.model.Language;
import dev.codeinterp.web.bindings.Browser;

/**
 * The language the composer offers in a conversation. A language the user picked there is kept in
 * this browser (by the conversation's route); without one the conversation's own history decides:
 * its latest cell's language (a server session's stored events, a local conversation's IndexedDB),
 * so a reload, or the same session in another browser, opens with the language last used.
 */
final class ConversationLanguage {
    private static final String KEY = "codeinterp.language.";

    private String route;
    private boolean picked;

    /** Opening the conversation at {@code route}: the language to show first. */
    Language open(String route, Language current) {
        this.route = route;
        String stored = Browser.storageGet(KEY + route);
        picked = stored != null;
        if (picked) {
            try {
                return Language.fromWire(stored);
            } catch (IllegalArgumentException e) {
                picked = false;
            }
        }
        return current;
    }

    void picked(Language language) {
        picked = true;
        if (route != null) {
            Browser.storageSet(KEY + route, language.wire());
        }
    }

    /** A cell of the conversation was queued (or replayed): the language to show now, or null to keep the picked one. */
    Language queued(Language language) {
        return picked ? null : language;
    }
}
