// Over 300 lines: one turn's outputs as they stream, with in-place display updates, clears, the input box and the end; each part is a helper class.
package dev.codeinterp.web.view;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Language;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.StreamName;
import dev.codeinterp.model.rules.MimeTypes;
import dev.codeinterp.web.bindings.Browser;
import dev.codeinterp.web.session.WorkspaceFiles;
import org.teavm.jso.browser.Window;
import org.teavm.jso.dom.html.HTMLElement;

/** One cell: its code, then its outputs as they stream, then how it ended. */
public final class TurnView {
    private static final int MAX_STREAM_CHARS = 400_000;

    private final HTMLElement root = Dom.el("article", "turn");
    private final HTMLElement outputs = Dom.el("div", "outputs");
    private final HTMLElement footer = Dom.el("div", "turn-footer");
    private final StringBuilder plainOutput = new StringBuilder();
    private String code = "";
    private HTMLElement lastStream;
    private StreamName lastStreamName;
    private int streamChars;
    private boolean streamCapped;
    private boolean clearBeforeNextOutput; // clear_output(wait=True) waits for the next output
    private double startedAt;
    private boolean running;
    private Event.Finished finished;
    private final WorkspaceFiles files;
    private HTMLElement artifacts;
    private final InputPrompt.Replies replies;
    private InputPrompt prompt;
    /** Runs an edited copy of this cell at the end, or null (the embed widget has no such tool). */
    private final ConversationView.Rerun rerun;

    TurnView(boolean restartNotice, WorkspaceFiles files, InputPrompt.Replies replies, ConversationView.Rerun rerun) {
        this.files = files;
        this.replies = replies;
        this.rerun = rerun;
        root.setAttribute("data-testid", restartNotice ? "notice-turn" : "turn");
        if (restartNotice) {
            root.getClassList().add("notice");
        }
        root.appendChild(outputs);
        root.appendChild(footer);
    }

    HTMLElement root() {
        return root;
    }

    String code() {
        return code;
    }

    Event.Finished finished() {
        return finished;
    }

    /** Marks this cell as one the assistant ran (its tool call names it). */
    void ranByAssistant() {
        if (!root.getClassList().contains("by-assistant")) {
            root.getClassList().add("by-assistant");
            HTMLElement label = Dom.text("div", "turn-label", "run by the assistant");
            label.setAttribute("data-testid", "run-by-assistant");
            root.insertBefore(label, root.getFirstChild());
        }
    }

    void queued(String code, Language language) {
        this.code = code;
        HTMLElement header = Dom.el("div", "turn-code");
        HTMLElement pre = Dom.el("pre", "code");
        pre.setAttribute("data-language", language.wire());
        CellLanguage.highlight(code, language, pre);
        if (code.split("\n", -1).length > 12) {
            pre.getClassList().add("collapsed");
            HTMLElement toggle = Dom.button("Show all", null, "Show the whole cell");
            toggle.addEventListener("click", e -> {
                boolean collapsed = pre.getClassList().toggle("collapsed");
                toggle.setInnerText(collapsed ? "Show all" : "Collapse");
            });
            header.appendChild(toggle);
        }
        HTMLElement tools = Dom.el("div", "turn-tools");
        HTMLElement copyCode = Dom.button("Copy code", null, "Copy this cell's code");
        copyCode.addEventListener("click", e -> Browser.copy(code));
        HTMLElement copyOutput = Dom.button("Copy output", null, "Copy this cell's text output");
        copyOutput.addEventListener("click", e -> Browser.copy(plainOutput.toString()));
        tools.appendChild(CellLanguage.tag(language));
        if (rerun != null) {
            tools.appendChild(editTool(header, language));
        }
        tools.appendChild(copyCode);
        tools.appendChild(copyOutput);
        header.insertBefore(pre, header.getFirstChild());
        header.appendChild(tools);
        root.insertBefore(header, outputs);
        setFooter("queued");
    }

    /** "Edit": this cell's code in an editor under it, to run again as a new cell at the end. */
    private HTMLElement editTool(HTMLElement header, Language language) {
        HTMLElement edit = Dom.button("Edit", "edit-cell", "Edit this cell and run it again as a new cell");
        edit.addEventListener("click", e -> {
            if (header.getNextSibling() != null && ((HTMLElement) header.getNextSibling()).getClassList().contains("cell-editor")) {
                return;
            }
            CellEditor[] editor = new CellEditor[1];
            editor[0] = new CellEditor(code, language, rerun, () -> {
                root.removeChild(editor[0].root());
                edit.focus();
            });
            root.insertBefore(editor[0].root(), header.getNextSibling());
            editor[0].focus();
        });
        return edit;
    }

    void apply(Event event, long timeMs) {
        if (prompt != null) { // whatever the cell does next, it no longer waits for this answer
            prompt.close();
            prompt = null;
        }
        if (clearBeforeNextOutput && isOutput(event)) {
            clearOutputs();
        }
        switch (event.type()) {
            case QUEUED:
                queued(((Event.Queued) event).code(), ((Event.Queued) event).language());
                break;
            case STARTED:
                running = true;
                startedAt = timeMs;
                root.getClassList().add("running");
                tick();
                break;
            case STREAM:
                stream((Event.Stream) event);
                break;
            case EXECUTE_RESULT: {
                Event.ExecuteResult r = (Event.ExecuteResult) event;
                HTMLElement block = output("result");
                block.appendChild(Dom.text("span", "prompt", "Out[" + r.executionCount() + "]:"));
                block.appendChild(BundleView.render(r.data()));
                remember(r.data().get("text/plain"));
                break;
            }
            case DISPLAY_DATA: {
                Event.DisplayData d = (Event.DisplayData) event;
                HTMLElement block = output("display");
                if (d.displayId() != null) {
                    block.setAttribute("data-display-id", d.displayId());
                }
                block.appendChild(BundleView.render(d.data()));
                remember(d.data().get("text/plain"));
                break;
            }
            case UPDATE_DISPLAY_DATA:
                DisplayUpdates.apply(outputs, (Event.UpdateDisplayData) event);
                break;
            case CLEAR_OUTPUT:
                if (((Event.ClearOutput) event).waitForNext()) {
                    clearBeforeNextOutput = true;
                } else {
                    clearOutputs();
                }
                break;
            case ERROR: {
                Event.Error e = (Event.Error) event;
                HTMLElement pre = Dom.el("pre", "traceback");
                String text = e.traceback().isEmpty() ? e.ename() + ": " + e.evalue() : String.join("\n", e.traceback());
                Ansi.render(text, pre);
                output("error").appendChild(pre);
                plainOutput.append(e.ename()).append(": ").append(e.evalue()).append('\n');
                break;
            }
            case TRUNCATED:
                notice("Output truncated: this cell printed more than " + (((Event.Truncated) event).limitBytes() / 1024) + " KiB; the rest was dropped.");
                break;
            case RESTARTED:
                notice("Interpreter restarted: " + ((Event.Restarted) event).reason() + ". Variables are gone.");
                break;
            case RESUMED: // nothing was lost: a quiet note, not a warning
                output("note").appendChild(Dom.document().createTextNode(SessionNotes.resumed((Event.Resumed) event)));
                break;
            case ARTIFACT:
                artifact((Event.Artifact) event);
                break;
            case FINISHED:
                finish((Event.Finished) event);
                break;
            case INSTALL:
                outputs.appendChild(InstallLine.render((Event.Install) event));
                lastStream = null;
                break;
            case INPUT_REQUEST:
                prompt = new InputPrompt((Event.InputRequest) event, replies);
                outputs.appendChild(prompt.root());
                lastStream = null;
                prompt.focus();
                break;
            default:
                break;
        }
    }

    /** A file the cell wrote: a chip that downloads it, and the picture itself for images. */
    private void artifact(Event.Artifact a) {
        if (artifacts == null) {
            artifacts = Dom.el("div", "artifacts");
            artifacts.setAttribute("data-testid", "artifacts");
            root.insertBefore(artifacts, footer);
        }
        HTMLElement chip = Dom.button(a.name() + " · " + Format.bytes(a.size()), "artifact", "Download " + a.name());
        chip.getClassList().add("chip");
        chip.setAttribute("data-name", a.name());
        chip.addEventListener("click", e -> files.save(a.name()));
        artifacts.appendChild(chip);
        if (MimeTypes.isInlineImage(a.mime())) {
            HTMLElement figure = output("display");
            figure.getClassList().add("artifact-image");
            files.preview(a.name(), url -> {
                if (url == null) {
                    figure.appendChild(Dom.text("span", "muted", a.name() + " is no longer in the workspace."));
                    return;
                }
                HTMLElement img = Dom.el("img", null);
                img.setAttribute("src", url);
                img.setAttribute("alt", a.name());
                figure.appendChild(img);
            });
        }
    }

    private static boolean isOutput(Event event) {
        switch (event.type()) {
            case STREAM:
            case DISPLAY_DATA:
            case EXECUTE_RESULT:
            case ERROR:
                return true;
            default:
                return false;
        }
    }

    /** Jupyter's clear_output: the cell's outputs so far go (its code, files and footer stay). */
    private void clearOutputs() {
        clearBeforeNextOutput = false;
        while (outputs.getFirstChild() != null) {
            outputs.removeChild(outputs.getFirstChild());
        }
        lastStream = null;
        streamChars = 0;
        streamCapped = false;
        plainOutput.setLength(0);
    }

    private void stream(Event.Stream s) {
        plainOutput.append(s.text());
        if (streamCapped) {
            return;
        }
        if (lastStream == null || lastStreamName != s.name()) {
            lastStream = output("stream");
            lastStream.getClassList().add(s.name().wire());
            lastStreamName = s.name();
        }
        String text = s.text();
        if (streamChars + text.length() > MAX_STREAM_CHARS) {
            text = text.substring(0, Math.max(0, MAX_STREAM_CHARS - streamChars));
            streamCapped = true;
        }
        streamChars += text.length();
        Ansi.render(text, lastStream);
        if (streamCapped) {
            notice("Showing the first " + MAX_STREAM_CHARS + " characters of output; copy the output to see all of it.");
        }
    }

    private HTMLElement output(String type) {
        HTMLElement block = Dom.el(type.equals("stream") ? "pre" : "div", "output output-" + type);
        block.setAttribute("data-testid", "output");
        block.setAttribute("data-output-type", type);
        outputs.appendChild(block);
        if (!type.equals("stream")) {
            lastStream = null;
        }
        return block;
    }

    private void notice(String text) {
        output("notice").appendChild(Dom.document().createTextNode(text));
    }

    private void remember(Object text) {
        if (text instanceof String s) {
            plainOutput.append(s).append('\n');
        }
    }

    private void finish(Event.Finished f) {
        finished = f;
        running = false;
        root.getClassList().remove("running");
        root.getClassList().add("status-" + f.status().wire());
        StringBuilder s = new StringBuilder(label(f.status()));
        if (f.durationMs() != null) {
            s.append(" · ").append(Format.duration(f.durationMs()));
        }
        setFooter(s.toString());
    }

    private static String label(Status status) {
        switch (status) {
            case OK: return "done";
            case ERROR: return "error";
            case TIMEOUT: return "timed out";
            case OOM: return "out of memory";
            case INTERRUPTED: return "interrupted";
            default: return status.wire();
        }
    }

    private void tick() {
        if (!running) {
            return;
        }
        setFooter("running · " + (prompt != null ? "waiting for input · " : "")
                + Format.duration((long) Math.max(0, Browser.now() - startedAt)));
        Window.setTimeout(this::tick, 100);
    }

    private void setFooter(String text) {
        Dom.clear(footer);
        if (running) {
            footer.appendChild(Dom.el("span", "spinner"));
        }
        footer.appendChild(Dom.document().createTextNode(text));
    }
}
