package dev.codeinterp.web;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Language;
import dev.codeinterp.web.bindings.Browser;
import dev.codeinterp.web.view.PackagesField;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The packages a conversation's cells ask for, per language: what the user typed in the composer's
 * field is kept in this browser by the conversation's route (as {@link ConversationLanguage} keeps
 * the language), and each cell sends those names its session has not installed yet, as its
 * {@code install} events (live or replayed) say. Installs live in the session's workspace, so a
 * restart keeps them.
 */
final class ConversationPackages implements PackagesField.Store {
    private static final String KEY = "codeinterp.packages.";

    private String route;
    private boolean local;
    /** What the field holds per language: typed before a session exists, it goes with the first cells. */
    private final Map<Language, String> texts = new EnumMap<>(Language.class);
    private final Set<String> installed = new HashSet<>();

    /**
     * Opening the conversation at {@code route}: the names this browser kept for it, else those in
     * the field now (kept for it from here on, as a picked language carries over). Local
     * conversations take no packages.
     */
    void open(String route, boolean localMode) {
        this.route = route;
        this.local = localMode;
        installed.clear();
        if (localMode) {
            return;
        }
        for (Language language : Language.values()) {
            String stored = Browser.storageGet(key(language));
            if (stored != null) {
                texts.put(language, stored);
            } else if (!textFor(language).isBlank()) {
                Browser.storageSet(key(language), textFor(language));
            }
        }
    }

    /** The conversation closed: edits until the next one opens belong to no conversation yet. */
    void close() {
        route = null;
    }

    @Override
    public String textFor(Language language) {
        return local ? "" : texts.getOrDefault(language, "");
    }

    @Override
    public void edited(Language language, String text) {
        if (local) {
            return;
        }
        texts.put(language, text);
        if (route != null) {
            Browser.storageSet(key(language), text); // an emptied field too, so reopening does not fill it from another
        }
    }

    private String key(Language language) {
        return KEY + language.wire() + "." + route;
    }

    /** The session installed these (a cell's {@code install} event). */
    void installed(Event.Install install) {
        for (String name : install.packages()) {
            installed.add(installedKey(install.language(), name));
        }
    }

    /** What a {@code language} cell run now asks for: the field's names, less those already installed. */
    List<String> forCell(Language language) {
        List<String> wanted = new ArrayList<>();
        if (language == Language.BASH || local) {
            return wanted;
        }
        for (String name : PackagesField.names(textFor(language))) {
            if (!installed.contains(installedKey(language, name))) {
                wanted.add(name);
            }
        }
        return wanted;
    }

    /** As the server compares names: PEP 503 for Python (case and runs of -_. do not matter); npm's as given. */
    private static String installedKey(Language language, String name) {
        String compared = language == Language.PYTHON ? name.replaceAll("[-_.]+", "-").toLowerCase(Locale.ROOT) : name;
        return language.wire() + " " + compared;
    }
}
