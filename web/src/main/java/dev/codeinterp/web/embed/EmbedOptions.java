package dev.codeinterp.web.embed;

import dev.codeinterp.model.Language;
import dev.codeinterp.model.embed.EmbedMessage;
import dev.codeinterp.web.bindings.EmbedChannel;

/**
 * The widget's options, from the URL fragment (never sent to the server): {@code code} and
 * {@code prerun} base64url, {@code language}, {@code runtime} server|browser|auto, {@code autorun}
 * 0|1|visible, {@code readonly}, {@code ui} full|editor|output, {@code theme} light|dark|auto,
 * {@code height} auto|px, {@code maxHeight}, {@code files} (a manifest's URL). Unknown values fall back to the defaults.
 */
final class EmbedOptions {
    enum Runtime { SERVER, BROWSER, AUTO }

    enum Autorun { NO, YES, VISIBLE }

    final String code;
    final String prerun;
    /** The URL of a files manifest ({@link dev.codeinterp.model.embed.EmbedManifest}), or "". */
    final String files;
    final String language;
    final Runtime runtime;
    final Autorun autorun;
    boolean readonly;
    String ui;
    final String theme;
    long maxHeight;

    private EmbedOptions(String code, String prerun, String files, String language, Runtime runtime, Autorun autorun, boolean readonly,
                         String ui, String theme, long maxHeight) {
        this.code = code;
        this.prerun = prerun;
        this.files = files;
        this.language = language;
        this.runtime = runtime;
        this.autorun = autorun;
        this.readonly = readonly;
        this.ui = ui;
        this.theme = theme;
        this.maxHeight = maxHeight;
    }

    static EmbedOptions fromFragment() {
        String runtime = or(EmbedChannel.option("runtime"), "auto");
        String autorun = or(EmbedChannel.option("autorun"), "0");
        String ui = or(EmbedChannel.option("ui"), "full");
        String theme = or(EmbedChannel.option("theme"), "auto");
        return new EmbedOptions(
                decoded(EmbedChannel.option("code")),
                decoded(EmbedChannel.option("prerun")),
                or(EmbedChannel.option("files"), ""),
                or(EmbedChannel.option("language"), "python"),
                runtime.equals("server") ? Runtime.SERVER : runtime.equals("browser") ? Runtime.BROWSER : Runtime.AUTO,
                autorun.equals("1") ? Autorun.YES : autorun.equals("visible") ? Autorun.VISIBLE : Autorun.NO,
                "1".equals(EmbedChannel.option("readonly")) || "true".equals(EmbedChannel.option("readonly")),
                ui.equals("editor") || ui.equals("output") ? ui : "full",
                theme.equals("light") || theme.equals("dark") ? theme : "auto",
                pixels(EmbedChannel.option("maxHeight")));
    }

    /** The host's {@code setOptions}: what it names changes, an unknown {@code ui} is ignored. */
    void apply(EmbedMessage.SetOptions o) {
        if (o.readonly() != null) {
            readonly = o.readonly();
        }
        if (o.ui() != null && (o.ui().equals("full") || o.ui().equals("editor") || o.ui().equals("output"))) {
            ui = o.ui();
        }
        if (o.maxHeight() != null) {
            maxHeight = Math.max(0, o.maxHeight());
        }
    }

    /** The language of the editor's code and the setup code; an unknown name is Python. */
    Language language() {
        try {
            return Language.fromWire(language);
        } catch (IllegalArgumentException e) {
            return Language.PYTHON;
        }
    }

    /** Whether the editor shows: not readonly, and not an output-only widget. */
    boolean editable() {
        return !readonly && !ui.equals("output");
    }

    private static String decoded(String base64Url) {
        if (base64Url == null || base64Url.isEmpty()) {
            return "";
        }
        String text = EmbedChannel.base64UrlText(base64Url);
        return text == null ? "" : text;
    }

    /** A positive whole number of pixels, else 0 (no cap). */
    static long pixels(String value) {
        if (value == null || !value.matches("[0-9]{1,6}")) {
            return 0;
        }
        return Long.parseLong(value);
    }

    private static String or(String value, String fallback) {
        return value == null || value.isEmpty() ? fallback : value;
    }
}
