package dev.codeinterp.web.view;

import dev.codeinterp.model.Language;
import dev.codeinterp.web.bindings.Browser;
import org.teavm.jso.dom.html.HTMLElement;

import java.util.ArrayList;
import java.util.List;

/**
 * Cells taken from the composer that no interpreter has accepted yet, shown as waiting turns under
 * the conversation. A cell is <em>held</em> while there is no connected session to send it to (the
 * session is still starting, or its socket reconnects); {@link #flush} sends held cells in order,
 * each at most once. A sent cell stays shown until the server queues it (its own turn replaces
 * this one) or refuses it (the caller puts its code back in the composer).
 */
public final class PendingCells {
    public interface Sender {
        /** Returns false if the cell could not be sent now; it stays held. */
        boolean send(String code, Language language, List<String> packages, Double timeoutSeconds);
    }

    private static final class Cell {
        final String code;
        final Language language;
        final List<String> packages;
        final Double timeoutSeconds;
        final HTMLElement view;
        final HTMLElement footer;
        boolean sent;

        Cell(String code, Language language, List<String> packages, Double timeoutSeconds, HTMLElement view, HTMLElement footer) {
            this.code = code;
            this.language = language;
            this.packages = packages;
            this.timeoutSeconds = timeoutSeconds;
            this.view = view;
            this.footer = footer;
        }
    }

    private final HTMLElement root = Dom.el("section", "pending");
    private final List<Cell> cells = new ArrayList<>();
    private String waitingFor = "waiting for the session…";

    public PendingCells() {
        root.setAttribute("aria-live", "polite");
    }

    public HTMLElement root() {
        return root;
    }

    /** True while some cell waits to be sent: a new cell must wait behind it. */
    public boolean holding() {
        for (Cell c : cells) {
            if (!c.sent) {
                return true;
            }
        }
        return false;
    }

    /** Holds a cell with what it asks for: its packages and its timeout (null: the server's default). */
    public void hold(String code, Language language, List<String> packages, Double timeoutSeconds) {
        HTMLElement view = Dom.el("article", "turn pending");
        view.setAttribute("data-testid", "pending-turn");
        HTMLElement header = Dom.el("div", "turn-code");
        HTMLElement pre = Dom.el("pre", "code");
        CellLanguage.highlight(code, language, pre);
        header.appendChild(pre);
        view.appendChild(header);
        HTMLElement footer = Dom.el("div", "turn-footer");
        setFooter(footer, waitingFor);
        view.appendChild(footer);
        root.appendChild(view);
        Browser.scrollIntoView(view);
        cells.add(new Cell(code, language, packages, timeoutSeconds, view, footer));
    }

    /** What held cells are waiting for, in a few words: "waiting for the connection…". */
    public void waitingFor(String words) {
        waitingFor = words;
        for (Cell c : cells) {
            if (!c.sent) {
                setFooter(c.footer, words);
            }
        }
    }

    /** Sends the held cells in order until the sender refuses one; returns how many were sent. */
    public int flush(Sender sender) {
        int sent = 0;
        for (Cell c : cells) {
            if (c.sent) {
                continue;
            }
            if (!sender.send(c.code, c.language, c.packages, c.timeoutSeconds)) {
                break;
            }
            c.sent = true;
            setFooter(c.footer, "sent, waiting for the server…");
            sent++;
        }
        return sent;
    }

    /** The server queued a cell with this code: its own turn now shows it. */
    public void accepted(String code) {
        removeSent(code);
    }

    /** The server refused a cell with this code (the caller puts it back in the composer). */
    public void refused(String code) {
        removeSent(code);
    }

    /** Forgets every cell and returns the codes of those never sent, oldest first. */
    public List<String> clear() {
        List<String> held = new ArrayList<>();
        for (Cell c : cells) {
            if (!c.sent) {
                held.add(c.code);
            }
            root.removeChild(c.view);
        }
        cells.clear();
        return held;
    }

    /** Forgets the cells already sent: they belong to a conversation that is being closed. */
    public void forgetSent() {
        cells.removeIf(c -> {
            if (c.sent) {
                root.removeChild(c.view);
            }
            return c.sent;
        });
    }

    private static void setFooter(HTMLElement footer, String text) {
        Dom.clear(footer);
        footer.appendChild(Dom.el("span", "spinner"));
        footer.appendChild(Dom.document().createTextNode(text));
    }

    private void removeSent(String code) {
        for (int i = 0; i < cells.size(); i++) {
            Cell c = cells.get(i);
            if (c.sent && c.code.equals(code)) {
                root.removeChild(c.view);
                cells.remove(i);
                return;
            }
        }
    }
}
