package dev.codeinterp.web.view;

import dev.codeinterp.model.Event;
import org.teavm.jso.dom.html.HTMLElement;

/** Mode and isolation, connection state, and the last run's measurements. */
public final class StatusLine {
    private final HTMLElement root = Dom.el("div", "status");
    private final HTMLElement mode = Dom.text("span", "status-mode", "Server");
    private final HTMLElement connection = Dom.text("span", "status-connection", "connecting");
    private final HTMLElement lastRun = Dom.el("span", "status-run");
    private final HTMLElement problem = Dom.el("span", "status-problem");

    public StatusLine() {
        root.setAttribute("data-testid", "status");
        root.setAttribute("role", "status");
        root.appendChild(mode);
        root.appendChild(connection);
        root.appendChild(lastRun);
        root.appendChild(problem);
    }

    public HTMLElement root() {
        return root;
    }

    /** Which mode runs the code, always first: "Server · gVisor", "Local · Pyodide … · in this browser". */
    public void describe(String description) {
        Dom.setText(mode, description);
        mode.setClassName("status-mode" + (description.startsWith("Local") ? " local" : ""));
    }

    public void connection(String state) {
        Dom.setText(connection, state);
        String word = state.split("[ (]")[0].toLowerCase();
        connection.setClassName("status-connection state-" + word);
    }

    public void problem(String message) {
        Dom.setText(problem, message == null ? "" : message);
        problem.setAttribute("title", message == null ? "" : message); // one line in the bar; the whole sentence here
    }

    public void clearLastRun() {
        Dom.setText(lastRun, "");
    }

    public void lastRun(Event.Finished f) {
        StringBuilder s = new StringBuilder("last run: ").append(f.status().wire());
        if (f.durationMs() != null) {
            s.append(" · ").append(Format.duration(f.durationMs()));
        }
        if (f.cpuMs() != null) {
            s.append(" · CPU ").append(Format.duration(f.cpuMs()));
        }
        if (f.peakMemoryKb() != null) {
            s.append(" · peak ").append(Format.memory(f.peakMemoryKb()));
        }
        Dom.setText(lastRun, s.toString());
    }

}
