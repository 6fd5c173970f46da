package dev.codeinterp.web.embed;

import dev.codeinterp.model.Language;
import dev.codeinterp.model.rest.ResultFold;
import dev.codeinterp.web.bindings.Browser;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The widget's cells on their way: held until the interpreter can take them, then sent, then
 * known by their execution id once their {@code queued} event names it (matched by code, oldest
 * first, as the server answers executes in order), until their {@code finished}.
 */
final class Runs {
    /** One cell: the host's request id (null for one typed into the widget), hidden if it is the prerun. */
    static final class Run {
        final String requestId;
        final String code;
        final Language language;
        final boolean hidden;
        final double startedAt = Browser.now();
        final ResultFold fold = new ResultFold();

        Run(String requestId, String code, Language language, boolean hidden) {
            this.requestId = requestId;
            this.code = code;
            this.language = language;
            this.hidden = hidden;
        }

        double seconds() {
            return Math.max(0, Browser.now() - startedAt) / 1000.0;
        }
    }

    interface Sender {
        /** False if the interpreter cannot take the cell now. */
        boolean send(String code, Language language);
    }

    private final List<Run> held = new ArrayList<>();
    private final List<Run> sent = new ArrayList<>();
    private final Map<String, Run> byExecution = new HashMap<>();

    void hold(Run run) {
        // the setup code goes before the cells the host sent while the widget was getting ready
        held.add(run.hidden ? 0 : held.size(), run);
    }

    /** Sends held cells in order until one cannot be sent. */
    void flush(Sender sender) {
        while (!held.isEmpty()) {
            Run run = held.get(0);
            sent.add(run); // before sending: a local interpreter answers `queued` inside execute
            if (!sender.send(run.code, run.language)) {
                sent.remove(sent.size() - 1);
                return;
            }
            held.remove(0);
        }
    }

    /** The cell that {@code queued} with this code answers, now known by its execution id; null if none of ours. */
    Run queued(String executionId, String code) {
        for (int i = 0; i < sent.size(); i++) {
            if (sent.get(i).code.equals(code)) {
                Run run = sent.remove(i);
                byExecution.put(executionId, run);
                return run;
            }
        }
        return null;
    }

    Run of(String executionId) {
        return byExecution.get(executionId);
    }

    void finished(String executionId) {
        byExecution.remove(executionId);
    }

    /** The sent cell with this code was not taken. */
    Run refused(String code) {
        for (int i = 0; i < sent.size(); i++) {
            if (sent.get(i).code.equals(code)) {
                return sent.remove(i);
            }
        }
        return null;
    }

    /** Every cell not finished: none will be. */
    List<Run> drain() {
        List<Run> all = new ArrayList<>(held);
        all.addAll(sent);
        all.addAll(byExecution.values());
        held.clear();
        sent.clear();
        byExecution.clear();
        return all;
    }
}
