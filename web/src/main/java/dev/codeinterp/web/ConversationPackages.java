package dev.codeinterp.web;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Language;
import dev.codeinterp.web.bindings.Browser;
import dev.codeinterp.web.view.PackagesField;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
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
    private final Set<String> installed = new HashSet<>();

    /** Opening the conversation at {@code route}; local conversations take no packages. */
    void open(String route, boolean localMode) {
        this.route = route;
        this.local = localMode;
        installed.clear();
    }

    @Override
    public String textFor(Language language) {
        if (route == null || local) {
            return "";
        }
        String text = Browser.storageGet(KEY + language.wire() + "." + route);
        return text == null ? "" : text;
    }

    @Override
    public void edited(Language language, String text) {
        if (route == null || local) {
            return;
        }
        if (text.isBlank()) {
            Browser.storageRemove(KEY + language.wire() + "." + route);
        } else {
            Browser.storageSet(KEY + language.wire() + "." + route, text);
        }
    }

    /** The session installed these (a cell's {@code install} event). */
    void installed(Event.Install install) {
        for (String name : install.packages()) {
            installed.add(key(install.language(), name));
        }
    }

    /** What a {@code language} cell run now asks for: the field's names, less those already installed. */
    List<String> forCell(Language language) {
        List<String> wanted = new ArrayList<>();
        if (language == Language.BASH || local) {
            return wanted;
        }
        for (String name : PackagesField.names(textFor(language))) {
            if (!installed.contains(key(language, name))) {
                wanted.add(name);
            }
        }
        return wanted;
    }

    /** As the server compares names: PEP 503 for Python (case and runs of -_. do not matter); npm's as given. */
    private static String key(Language language, String name) {
        String compared = language == Language.PYTHON ? name.replaceAll("[-_.]+", "-").toLowerCase(Locale.ROOT) : name;
        return language.wire() + " " + compared;
    }
}
