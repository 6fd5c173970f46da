package dev.codeinterp.web.view;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Language;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.web.bindings.Browser;
import dev.codeinterp.web.bindings.Scrolling;
import dev.codeinterp.web.session.WorkspaceFiles;
import org.teavm.jso.browser.Window;
import org.teavm.jso.dom.html.HTMLElement;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The column of turns, one per execution, built from the session's events in seq order. */
public final class ConversationView {
    public interface FinishedListener {
        void onFinished(Event.Finished finished);
    }

    /** Runs an edited copy of an earlier cell as a new cell at the end. */
    public interface Rerun {
        void run(String code, Language language);
    }

    private final HTMLElement root = Dom.el("main", "conversation");
    private final HTMLElement empty;
    private static final double FRAME_BUDGET_MS = 10;

    private final Map<String, TurnView> turns = new HashMap<>();
    /** Assistant turns by their execution id (a {@code prompt} starts one). */
    private final Map<String, AssistantTurnView> assistantTurns = new HashMap<>();
    private final List<SessionEvent> backlog = new ArrayList<>();
    /** The cells whose turns {@link #clear} took away while they still ran: their later events are not shown. */
    private final Set<String> dropped = new HashSet<>();
    /** The notes of refused cells, which {@link #clear} takes away too. */
    private final List<HTMLElement> notes = new ArrayList<>();
    /** A restart went with the last {@link #clear}: its notice is not shown either. */
    private boolean quietRestart;
    private boolean scheduled;
    private final FinishedListener onFinished;
    private int running;

    /** The files of the session the conversation runs in now (new turns link their artifacts there). */
    private WorkspaceFiles files;
    private InputPrompt.Replies replies;
    private Rerun rerun;
    private Runnable afterAnswer;
    private final NewestControl newest = new NewestControl();

    public ConversationView(FinishedListener onFinished, WorkspaceFiles files, String intro) {
        this.onFinished = onFinished;
        this.empty = Dom.text("p", "empty", intro);
        empty.setAttribute("data-testid", "intro");
        this.files = files;
        root.setAttribute("aria-live", "polite");
        root.appendChild(newest.root());
        root.appendChild(empty);
    }

    /** Earlier cells get an Edit tool: the edited code runs through {@code rerun} as a new cell at the end. */
    public void rerunWith(Rerun rerun) {
        this.rerun = rerun;
    }

    /** Called once an answer to a cell's input() is sent (the page gives the composer its focus back). */
    public void afterInputAnswered(Runnable afterAnswer) {
        this.afterAnswer = afterAnswer;
    }

    /**
     * A sentence about this conversation's server under the intro, shown while the intro is (until
     * the first turn, or again after a clear).
     */
    public void introNote(String text, String testId) {
        HTMLElement note = Dom.text("span", "intro-note", text);
        note.setAttribute("data-testid", testId);
        empty.appendChild(note);
    }

    /** A line above the whole conversation, kept there whatever turns come and go (e.g. where a fork came from). */
    public void heading(HTMLElement line) {
        root.insertBefore(line, root.getFirstChild());
    }

    /** Where the answers to a running cell's input() go. */
    public void answerInputWith(InputPrompt.Replies replies) {
        this.replies = value -> {
            replies.reply(value);
            if (afterAnswer != null) {
                afterAnswer.run();
            }
        };
    }

    public HTMLElement root() {
        return root;
    }

    public boolean running() {
        return running > 0;
    }

    /**
     * Queues an event for the next animation frame. Frames render for at most ~10 ms and leave
     * the rest for the next frame, so a flood of output never blocks typing or scrolling, and
     * layout is read once per frame instead of once per event.
     */
    public void apply(SessionEvent e) {
        backlog.add(e);
        if (!scheduled) {
            scheduled = true;
            Window.requestAnimationFrame(t -> drain());
        }
    }

    /**
     * A cell just queued is scrolled into view above the composer, wherever the page was; other output
     * is followed while the page is at its end, and otherwise "↓ newest" appears.
     */
    private void drain() {
        scheduled = false;
        boolean follow = Scrolling.atEnd();
        double started = Browser.now();
        int done = 0;
        HTMLElement last = null;
        HTMLElement queued = null;
        while (done < backlog.size() && (done == 0 || Browser.now() - started < FRAME_BUDGET_MS)) {
            SessionEvent e = backlog.get(done++);
            HTMLElement shown = render(e);
            last = shown != null ? shown : last;
            if (shown != null && e.event().type() == dev.codeinterp.model.EventType.QUEUED) {
                queued = shown;
            }
        }
        backlog.subList(0, done).clear();
        if (queued != null) {
            Scrolling.reveal(queued);
            newest.hide();
        } else if (last != null && follow) {
            Scrolling.toEnd();
        } else if (last != null) {
            newest.show();
        }
        if (!backlog.isEmpty()) {
            scheduled = true;
            Window.requestAnimationFrame(t -> drain());
        }
    }

    /** A line at the conversation's end, under every event received so far (e.g. that its session was lost). */
    public void end(HTMLElement line) {
        renderBacklog();
        root.appendChild(line);
        Scrolling.reveal(line);
    }

    /**
     * The conversation goes on in another session (its own was lost): the turns so far stay, a line
     * saying {@code note} marks where the new session begins, and new turns use its {@code next} files.
     * The old session's cells run no more: none of them counts as running.
     */
    public void continueWith(WorkspaceFiles next, String note) {
        renderBacklog();
        files = next;
        running = 0;
        dropped.clear();
        end(LostSessionNotice.divider(note));
    }

    private void renderBacklog() {
        for (SessionEvent e : backlog) {
            render(e);
        }
        backlog.clear();
    }

    /** A cell or question the server did not take: a note where it would have run, saying why. */
    public void refused(String code, String why) {
        if (empty.getParentNode() != null) {
            root.removeChild(empty);
        }
        HTMLElement note = RefusedCell.render(code, why);
        notes.add(note);
        root.appendChild(note);
        Scrolling.reveal(note);
    }

    /**
     * Takes away the turns of the cells that ended (what is still waiting for its turn to render
     * first), and the notes of refused cells; turns of cells still queued or running stay. With
     * {@code everything} (a restart goes with it) their turns go too and the rest of their events
     * is not shown, nor the restart's notice. No turn left: the intro is back, as in a fresh view.
     */
    public void clear(boolean everything) {
        renderBacklog();
        for (Iterator<Map.Entry<String, TurnView>> it = turns.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, TurnView> turn = it.next();
            if (everything || turn.getValue().finished() != null) {
                if (turn.getValue().finished() == null && !turn.getKey().isEmpty()) { // notes between cells keep coming
                    dropped.add(turn.getKey());
                }
                detach(turn.getValue().root());
                it.remove();
            }
        }
        if (everything) {
            for (AssistantTurnView turn : assistantTurns.values()) {
                detach(turn.promptRoot());
                detach(turn.answerRoot());
            }
            assistantTurns.clear();
        }
        notes.forEach(this::detach);
        notes.clear();
        quietRestart = everything;
        if (turns.isEmpty() && assistantTurns.isEmpty() && empty.getParentNode() == null) {
            root.appendChild(empty);
        }
    }

    private void detach(HTMLElement e) {
        if (e.getParentNode() != null) {
            e.getParentNode().removeChild(e);
        }
    }

    private HTMLElement render(SessionEvent e) {
        if (quietRestart && e.event() instanceof Event.Restarted) {
            quietRestart = false; // a restart says so once: on the cell it ended, or on its own between cells
            if (e.executionId().isEmpty()) {
                return null;
            }
        }
        if (dropped.contains(e.executionId())) {
            if (e.event() instanceof Event.Finished f) { // the cell ended out of sight: it no longer counts as running
                dropped.remove(e.executionId());
                running = Math.max(0, running - 1);
                onFinished.onFinished(f);
            }
            return null;
        }
        if (e.event().type() == dev.codeinterp.model.EventType.PROMPT || assistantTurns.containsKey(e.executionId())) {
            return renderAssistant(e);
        }
        TurnView turn = turns.get(e.executionId());
        if (turn != null && e.executionId().isEmpty() && turn.root() != root.getLastChild()) {
            notes.add(turn.root()); // a note between cells shows where it happened, not beside an earlier one
            turn = null;
        }
        if (turn == null) {
            turn = new TurnView(e.executionId().isEmpty(), files, replies, rerun);
            turns.put(e.executionId(), turn);
            if (empty.getParentNode() != null) {
                root.removeChild(empty);
            }
            root.appendChild(turn.root());
        }
        if (e.event().type() == dev.codeinterp.model.EventType.QUEUED) {
            running++;
        }
        turn.apply(e.event(), e.timestampMs());
        if (e.event() instanceof Event.Finished f) {
            running = Math.max(0, running - 1);
            onFinished.onFinished(f);
        }
        return turn.root();
    }

    private HTMLElement renderAssistant(SessionEvent e) {
        AssistantTurnView turn = assistantTurns.get(e.executionId());
        if (turn == null) {
            turn = new AssistantTurnView(turns::get);
            assistantTurns.put(e.executionId(), turn);
            if (empty.getParentNode() != null) {
                root.removeChild(empty);
            }
            root.appendChild(turn.promptRoot());
            root.appendChild(turn.answerRoot());
        }
        turn.apply(e.event());
        return turn.answerRoot();
    }
}
