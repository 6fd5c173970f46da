// Over 300 lines: the page's composition root, wiring modes, composer, conversation, the conversation list, notebooks and the assistant offer; its pieces are their own classes.
package dev.codeinterp.web;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Language;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.notebook.ImportedNotebook;
import dev.codeinterp.model.notebook.NotebookCell;
import dev.codeinterp.web.bindings.Browser;
import dev.codeinterp.web.conversations.Conversation;
import dev.codeinterp.web.conversations.ConversationRoutes;
import dev.codeinterp.web.local.LocalInterpreter;
import dev.codeinterp.web.local.LocalWarmUp;
import dev.codeinterp.web.server.Credentials;
import dev.codeinterp.web.server.ServerHealth;
import dev.codeinterp.web.server.ServerSession;
import dev.codeinterp.web.session.Interpreter;
import dev.codeinterp.web.view.Composer;
import dev.codeinterp.web.view.ConversationList;
import dev.codeinterp.web.view.ComposerMode;
import dev.codeinterp.web.view.ConversationView;
import dev.codeinterp.web.view.Dom;
import dev.codeinterp.web.view.FilesPanel;
import dev.codeinterp.web.view.ForeignLinkPage;
import dev.codeinterp.web.view.ForkButton;
import dev.codeinterp.web.view.ImportedCells;
import dev.codeinterp.web.view.ModeSwitch;
import dev.codeinterp.web.view.NotebookButtons;
import dev.codeinterp.web.view.PackagesField;
import dev.codeinterp.web.view.PendingCells;
import dev.codeinterp.web.view.SessionNotes;
import dev.codeinterp.web.view.StatusLine;
import dev.codeinterp.web.view.ThemeSwitch;
import org.teavm.jso.dom.html.HTMLElement;

import java.util.List;

/**
 * The page's composition root. The conversation lives in the URL's fragment: {@code #/s/<id>} a
 * server session (its token only in localStorage, never in a URL or a log), {@code #/l/<id>} a local
 * one (kept in this browser's IndexedDB).
 */
public final class App implements Interpreter.Listener, Composer.Actions, ServerSessionStart.Outcome, NotebookButtons.Importer,
        ConversationList.Actions {
    private static final String MODE_KEY = "codeinterp.mode";

    /** Every conversation this browser can open, and the sidebar listing them. */
    private final ConversationShelf shelf = new ConversationShelf(this);
    private final ConversationList list = shelf.list();
    /** The page a link to a conversation this browser cannot open shows, or null. */
    private ForeignLinkPage foreign;
    /** The next conversation opened gets a history entry of its own ("New conversation": Back returns to the one before). */
    private boolean pushNext;

    private final StatusLine status = new StatusLine();
    private final Composer composer = new Composer(this, true);
    /** The language picked for the open conversation (kept per conversation), or null: its last cell's. */
    private final ConversationLanguage language = new ConversationLanguage();
    /** The packages typed for the open conversation's cells, per language, and those its session installed. */
    private final ConversationPackages packages = new ConversationPackages();
    private final PackagesField packagesField = new PackagesField(packages);
    /** The timeout picked for the open conversation's cells (both modes), kept per conversation. */
    private final ConversationTimeout timeout = new ConversationTimeout();
    private final AssistantOffer assistantOffer = new AssistantOffer(composer);
    /** Local mode's frame, started ahead while the page is in server mode (in browsers that used local mode). */
    private final LocalWarmUp localWarmUp = new LocalWarmUp();
    private final ModeSwitch modeSwitch = new ModeSwitch(this::choose, this::leaningLocal);
    private final FilesPanel filesPanel = new FilesPanel();
    private final NotebookButtons notebookButtons = new NotebookButtons(status, () -> this.interpreter, this);
    private final ForkButton forkButton = new ForkButton(this::fork);
    /** An imported notebook's cells that have not run yet, or null. */
    private ImportedCells imported;
    private final HTMLElement page = Dom.el("div", "page");
    /** Cells run before the session could take them: shown under the conversation and sent once it can. */
    private final PendingCells pending = new PendingCells();
    private ConversationView conversation;
    private Interpreter interpreter;
    private ModeSwitch.Mode mode = ModeSwitch.Mode.SERVER;
    /** Why there is no session to run cells in (it could not be created), or null. */
    private String noSession;
    /** Getting a server session for a new conversation: opening any conversation cancels it. */
    private final ServerSessionStart serverStart = new ServerSessionStart(status, pending, page, this);
    /** A conversation whose session was lost, going on in a new session once one starts. */
    private final LostSessionContinuation lostSession = new LostSessionContinuation(this::continueInNewSession);

    public static void main(String[] args) {
        new App().start();
    }

    private void start() {
        HTMLElement header = Dom.el("header", "topbar");
        header.appendChild(list.toggle());
        header.appendChild(Dom.text("h1", "title", "codeinterp"));
        header.appendChild(modeSwitch.root());
        header.appendChild(status.root());
        header.appendChild(notebookButtons.root());
        header.appendChild(forkButton.root());
        header.appendChild(new ThemeSwitch().root());
        Dom.document().getBody().appendChild(list.root());
        Dom.document().getBody().appendChild(list.shade());
        Dom.document().getBody().appendChild(header);
        HTMLElement layout = Dom.el("div", "layout");
        page.appendChild(pending.root());
        layout.appendChild(page);
        layout.appendChild(filesPanel.root());
        Dom.document().getBody().appendChild(layout);
        composer.addSettings(assistantOffer.endpointForm().root());
        Dom.document().getBody().appendChild(composer.root());
        composer.addPackages(packagesField);
        composer.addBesidePicker(timeout.picker().root());
        if ("local".equals(Browser.storageGet(MODE_KEY))) {
            mode = ModeSwitch.Mode.LOCAL;
        }
        String startRoute = ConversationRoutes.of(Browser.hash());
        boolean startsLocal = startRoute == null ? mode == ModeSwitch.Mode.LOCAL : startRoute.startsWith(LocalInterpreter.ROUTE_PREFIX);
        shelf.load(!startsLocal, () -> {
            String route = startRoute;
            Interpreter reopened = shelf.reopen(route);
            if (reopened != null) {
                open(reopened, null);
            } else if (route != null) {
                showForeign(route);
            } else {
                newConversation(null);
            }
            composer.focus();
            Browser.onHashChange(this::followHash);
        });
    }

    /** Back, Forward or a link to another conversation of this browser (e.g. the one a fork came from) opens it. */
    private void followHash() {
        String route = Browser.hash().startsWith("#") ? Browser.hash().substring(1) : Browser.hash();
        if (interpreter != null && route.equals(interpreter.route())) {
            return;
        }
        String known = ConversationRoutes.of(route);
        Interpreter next = shelf.reopen(known);
        pushNext = false;
        if (next != null) {
            leave();
            open(next, null);
        } else if (known != null) {
            showForeign(known);
        } else if (interpreter != null) {
            Browser.replaceHash(interpreter.route()); // names no conversation: the address names the one shown
        }
    }

    /** A link to a conversation this browser cannot open: a page that says so and offers a new one; nothing starts. */
    private void showForeign(String route) {
        leave();
        close();
        foreign = new ForeignLinkPage(route.startsWith(LocalInterpreter.ROUTE_PREFIX),
                Credentials.inThisBrowser().key() != null, () -> {
                    pushNext = false;
                    newConversation(null);
                });
        page.insertBefore(foreign.root(), pending.root());
        noSession = "This link's conversation is not in this browser: start a new conversation to run code.";
        status.describe(route.startsWith(LocalInterpreter.ROUTE_PREFIX) ? "Local" : "Server");
        status.connection("not in this browser");
        shelf.foreignShown();
    }

    /** The mode switch: a new conversation in the chosen mode, saying what became of the old one. */
    private void choose(ModeSwitch.Mode chosen) {
        if (chosen == mode && interpreter != null) {
            return;
        }
        boolean switching = interpreter != null;
        Browser.storageSet(MODE_KEY, chosen == ModeSwitch.Mode.LOCAL ? "local" : "server");
        String previous = interpreter == null ? null : interpreter.route();
        mode = chosen;
        pushNext = switching;
        if (!switching) {
            newConversation(null);
        } else if (chosen == ModeSwitch.Mode.LOCAL) {
            newConversation("Switched to local mode: a fresh Python interpreter in this browser. Variables from the server "
                    + "session are not here, and nothing you run or upload here leaves this browser. The server conversation "
                    + "stays in the list of conversations (#" + previous + ").");
        } else {
            newConversation("Switched to server mode: a fresh sandbox on the server. The local conversation stays in this "
                    + "browser, in the list of conversations (#" + previous + ").");
        }
    }

    private void newConversation(String intro) {
        leave();
        noSession = null;
        modeSwitch.show(mode);
        if (mode == ModeSwitch.Mode.LOCAL) {
            open(LocalInterpreter.create(localWarmUp), intro);
            return;
        }
        close();
        localWarmUp.prepareWhenIdle(); // also when no server session can be had
        serverStart.begin(intro);
    }

    /** Before another conversation opens: imported cells not run go, cells held for this one go back to the composer. */
    private void leave() {
        if (imported != null) {
            imported.remove();
            imported = null;
        }
        giveBack(pending.clear(), "The conversation changed before your cell could run; it is back in the composer.");
    }

    @Override
    public void sessionStarted(ServerSession session, String intro) {
        open(session, intro, lostSession.take());
        shelf.listKeySessions(() -> { }); // a key typed just now lists the key's other sessions
    }

    @Override
    public void sessionFailed(String sentence) {
        noSession = sentence + " Local mode (in this browser) still works.";
        status.problem(noSession);
        lostSession.failed();
        giveBack(pending.clear(), sentence + " Your cell is back in the composer; local mode (in this browser) still works.");
    }

    private void close() {
        close(null);
    }

    /** Lets go of the conversation shown: its session, and its view unless it is {@code kept} (it goes on in another session). */
    private void close(ConversationView kept) {
        serverStart.cancel();
        lostSession.cancel();
        forkButton.hide();
        packages.close();
        timeout.close();
        pending.forgetSent();
        if (interpreter != null) {
            interpreter.close();
            interpreter = null;
        }
        if (conversation != null && conversation != kept) {
            page.removeChild(conversation.root());
        }
        conversation = null;
        if (foreign != null) {
            page.removeChild(foreign.root());
            foreign = null;
        }
    }

    private void open(Interpreter next, String intro) {
        open(next, intro, null);
    }

    /** Opens {@code next} in a new conversation view, or in {@code kept}, which goes on in it (its own session was lost). */
    private void open(Interpreter next, String intro, ConversationView kept) {
        noSession = null;
        close(kept);
        mode = next instanceof LocalInterpreter ? ModeSwitch.Mode.LOCAL : ModeSwitch.Mode.SERVER;
        modeSwitch.show(mode);
        interpreter = next;
        if (kept != null) {
            conversation = kept;
            kept.continueWith(next.files(), "A new session continues the conversation here: it starts with no variables "
                    + "and no files from the one above.");
        } else {
            conversation = new ConversationView(this::finished, next.files(), intro != null ? intro
                    : mode == ModeSwitch.Mode.LOCAL
                    ? "Local mode: Python (Pyodide) and JavaScript run in this browser. Nothing you run or upload leaves it. "
                            + "Write code below, pick its language beside Run, and press Shift+Enter to run it."
                    : "Write Python, JavaScript or bash below (pick the language beside Run) and press Shift+Enter to run it.");
            page.insertBefore(conversation.root(), pending.root());
        }
        conversation.answerInputWith(next::reply);
        conversation.afterInputAnswered(composer::focus);
        conversation.rerunWith(this::run);
        filesPanel.attach(next.files(), mode == ModeSwitch.Mode.LOCAL
                ? "Files stay in this browser. Upload or drop files here; code reads them by name."
                : "No files yet. Upload or drop files here; code reads them by name.");
        if (pushNext) {
            Browser.pushHash(next.route());
        } else {
            Browser.replaceHash(next.route());
        }
        pushNext = false;
        shelf.opened(next);
        packages.open(next.route(), mode == ModeSwitch.Mode.LOCAL);
        timeout.open(next.route(), mode == ModeSwitch.Mode.LOCAL);
        packagesField.setLocal(mode == ModeSwitch.Mode.LOCAL);
        composer.setLanguage(language.open(next.route(), composer.language()));
        status.problem(null);
        status.clearLastRun();
        composer.setRunning(false);
        assistantOffer.open(next);
        if (mode == ModeSwitch.Mode.SERVER) {
            if (kept == null) {
                sayWhatThisServerLacks(conversation);
            }
            localWarmUp.prepareWhenIdle();
        } else {
            localWarmUp.stop();
        }
        if (next instanceof ServerSession session) {
            offerFork(session, conversation);
        }
        next.connect(this);
    }

    private void leaningLocal() {
        if (mode == ModeSwitch.Mode.SERVER) {
            localWarmUp.leaning();
        }
    }

    /**
     * Under a server conversation's intro, where this server runs runc for want of gVisor, or does not
     * keep variables past idle: that, and why.
     */
    private void sayWhatThisServerLacks(ConversationView shown) {
        ServerHealth.ask(health -> {
            if (health == null || conversation != shown) {
                return;
            }
            String runtime = SessionNotes.runtime(health.runtimeChoice());
            if (runtime != null) {
                shown.introNote(runtime, "runtime-note");
            }
            String idle = SessionNotes.idle(health.idle());
            if (idle != null) {
                shown.introNote(idle, "idle-note");
            }
        });
    }

    /** The fork button, as this server can fork (its idle sessions keep variables: it checkpoints), and the note of a fork. */
    private void offerFork(ServerSession session, ConversationView shown) {
        String source = session.forkedFrom();
        if (source != null) {
            shown.heading(ForkButton.note(source, ServerSession.ROUTE_PREFIX + source));
        }
        ServerHealth.ask(health -> {
            if (conversation == shown) {
                boolean can = health == null || health.idle() == null || health.idle().keepsVariables();
                forkButton.offer(can ? null : ForkButton.cannotFork(health.idle().why()));
            }
        });
    }

    /** Opens a copy of this conversation (history, variables, files); Back (or the note's link) returns to this one. */
    private void fork() {
        if (!(interpreter instanceof ServerSession source)) {
            return;
        }
        forkButton.forking();
        status.problem(null);
        source.fork((forked, problem) -> {
            if (interpreter != source) {
                return; // the page moved on; a fork made meanwhile stays reachable by its token, as any session
            }
            if (forked == null) {
                forkButton.offer(null);
                status.problem(problem);
                return;
            }
            leave();
            pushNext = true;
            open(forked, null);
        });
    }

    @Override
    public void newSession() {
        newConversation();
    }

    /** "New conversation": the one shown stays listed, and Back returns to it. */
    @Override
    public void newConversation() {
        pushNext = interpreter != null || foreign == null;
        newConversation(null);
    }

    @Override
    public void rename(String route, String title) {
        shelf.rename(route, title);
    }

    /** Deletes a conversation (its session closed, or its local history dropped); the one shown gives way to a new one. */
    @Override
    public void delete(String route) {
        boolean shown = interpreter != null && route.equals(interpreter.route());
        if (shown) {
            leave();
            close();
        }
        shelf.delete(route);
        if (shown) {
            pushNext = false;
            newConversation(null);
        }
    }

    private void finished(Event.Finished f) {
        status.lastRun(f);
        composer.setRunning(conversation.running());
        filesPanel.refresh();
        if (imported != null) {
            imported.onFinished(f, conversation.running());
        }
    }

    /** A new conversation in the current mode, with the notebook's cells waiting for Run all. */
    @Override
    public void importNotebook(ImportedNotebook notebook, String fileName) {
        newConversation("Imported " + fileName + ". Its code cells are below, not run yet: press Run all to run them in order.");
        imported = new ImportedCells(notebook, fileName, this::runImported);
        page.appendChild(imported.root());
    }

    /** Runs an imported cell in its own language (bash in local mode ends with the runtime's own clear error). */
    private String runImported(NotebookCell cell) {
        run(cell.code(), cell.language());
        return null;
    }

    @Override
    public void run(String code) {
        run(code, composer.language());
    }

    /** Sends the cell, or holds it (shown as waiting) until the session can take it: never drops it. */
    @Override
    public void run(String code, Language cellLanguage) {
        if (noSession != null) {
            giveBack(List.of(code), noSession + " Your cell is back in the composer.");
            return;
        }
        List<String> wanted = packages.forCell(cellLanguage);
        Double seconds = timeout.forCell();
        if (!pending.holding() && interpreter != null && interpreter.execute(code, cellLanguage, wanted, seconds)) {
            composer.setRunning(true);
            return;
        }
        pending.hold(code, cellLanguage, wanted, seconds);
    }

    @Override
    public void languagePicked(Language picked) {
        language.picked(picked);
    }

    private void sendHeld() {
        if (interpreter != null && pending.flush(interpreter::execute) > 0) {
            composer.setRunning(true);
        }
    }

    /** Puts cells that will not run back in the composer, oldest first, and says why. */
    private void giveBack(List<String> codes, String why) {
        if (codes.isEmpty()) {
            return;
        }
        composer.putBack(String.join("\n\n", codes));
        status.problem(why);
    }

    @Override
    public void interrupt() {
        if (interpreter != null) {
            interpreter.interrupt();
        }
    }

    @Override
    public void ask(String text) {
        if (interpreter == null || !interpreter.prompt(text)) {
            giveBack(List.of(text), "Not connected to the session yet; your question is back in the composer.");
        }
    }

    @Override
    public void stop() {
        if (interpreter != null) {
            interpreter.stop();
        }
    }

    @Override
    public void modePicked(ComposerMode.Kind kind) {
        assistantOffer.picked(kind);
    }

    @Override
    public void restart() {
        if (interpreter != null) {
            interpreter.restart();
        }
    }

    @Override
    public void onDescription(String description) {
        status.describe(description);
    }

    @Override
    public void onEvent(SessionEvent event) {
        conversation.apply(event);
        shelf.event(interpreter, event);
        if (event.event() instanceof Event.Prompt || event.event() instanceof Event.AssistantDone) {
            composer.setAssistantRunning(event.event() instanceof Event.Prompt);
        }
        if (event.event() instanceof Event.Install install) {
            packages.installed(install);
        }
        if (event.event() instanceof Event.Queued q) {
            status.problem(null); // a message about an earlier cell goes when a later one runs
            pending.accepted(q.code());
            Language own = language.queued(q.language());
            if (own != null) {
                composer.setLanguage(own);
            }
            composer.remember(q.code());
            composer.setRunning(true);
        }
    }

    @Override
    public void onCellTimeouts(long defaultMs, long maxMs) {
        timeout.limits(defaultMs, maxMs);
    }

    @Override
    public void onState(String state) {
        status.connection(state);
        if ("connected".equals(state)) {
            shelf.state(interpreter, Conversation.RUNNING);
        }
        if ("connected".equals(state) || state.startsWith("ready")) {
            filesPanel.refresh();
            sendHeld();
        } else {
            pending.waitingFor("waiting for the connection…");
        }
    }

    @Override
    public void onProblem(String message) {
        status.problem(message);
    }

    @Override
    public void onRefused(String code, String message) {
        pending.refused(code);
        if (conversation != null) {
            conversation.refused(code, message);
        }
        giveBack(List.of(code), message);
        composer.setRunning(conversation != null && conversation.running());
    }

    @Override
    public void onEnded(String message) {
        if (interpreter instanceof ServerSession) {
            shelf.state(interpreter, Conversation.GONE);
        }
        status.problem(message);
        giveBack(pending.clear(), message + " Your cell is back in the composer.");
    }

    /** As {@link #onEnded}, and the conversation's end offers a new session to go on in (its cells until then go back). */
    @Override
    public void onLost(String message) {
        onEnded(message);
        shelf.state(interpreter, Conversation.LOST);
        noSession = message;
        forkButton.hide();
        lostSession.offer(conversation, message);
    }

    /** "Continue in a new session": cells run from now on wait for it. */
    private void continueInNewSession() {
        noSession = null;
        serverStart.begin(null);
    }
}
