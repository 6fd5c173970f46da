// Over 300 lines: local mode's whole session (the frame, its history, files, the assistant), as ServerSession is server mode's.
package dev.codeinterp.web.local;

import dev.codeinterp.model.AssistantStatus;
import dev.codeinterp.model.Event;
import dev.codeinterp.model.Language;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.local.RuntimeFrameMessage;
import dev.codeinterp.model.notebook.NotebookExport;
import dev.codeinterp.model.runner.RunnerMessage;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.web.bindings.Browser;
import dev.codeinterp.web.session.Interpreter;
import dev.codeinterp.web.session.WorkspaceFiles;
import org.teavm.jso.JSBody;
import org.teavm.jso.JSObject;
import org.teavm.jso.typedarrays.Uint8Array;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Local mode: Python runs in this browser (Pyodide in the sandboxed runtime frame) and the
 * conversation is kept in this browser's IndexedDB. Nothing goes to our server but GETs of static
 * files. The frame speaks the runner's own event lines, so this class does what the server's
 * session does for server mode: numbers events, adds {@code queued}, and records them.
 */
public final class LocalInterpreter implements Interpreter {
    public static final String ROUTE_PREFIX = "/l/";
    private static final String NO_EXECUTION = "";

    private final String conversationId;
    private final LocalRuntimeFrame frame;
    private final LocalFiles files;
    private final LocalHistory history;
    /** Executions sent to the frame whose {@code finished} has not arrived yet, in order. */
    private final Set<String> unfinished = new LinkedHashSet<>();
    private Listener listener;
    /** The last runner line was a cell's {@code restarted}: the {@code reset} that follows is that cell's. */
    private boolean restartedLine;
    private long seq;
    private boolean closed;
    /** The conversation so far (replayed and new), which the assistant rebuilds the model's messages from. */
    private final List<SessionEvent> log = new ArrayList<>();
    /** The assistant, when an endpoint is configured in this browser; else null and nothing is ever requested. */
    private LocalAssistant assistant;

    /** {@code started}: a frame started ahead (LocalWarmUp), or null for a new one. */
    private LocalInterpreter(String conversationId, boolean kept, LocalRuntimeFrame started) {
        this.conversationId = conversationId;
        // the app's own conversations keep Python's memory snapshot in this origin; a widget stores nothing
        this.frame = started != null ? started : new LocalRuntimeFrame(kept, false);
        this.history = new LocalHistory(conversationId, kept, message -> {
            if (listener != null) {
                listener.onProblem(message);
            }
        });
        this.files = new LocalFiles(frame, history);
    }

    /** A new conversation, in the frame {@code warmUp} started ahead if there is one. */
    public static LocalInterpreter create(LocalWarmUp warmUp) {
        return new LocalInterpreter(randomId(), true, warmUp.take());
    }

    /**
     * An embed widget's: its conversation lives as long as the frame, so what a host page's visitors
     * run never lands in this origin's storage (where the app's own history lives) and no one has to clear it.
     */
    public static LocalInterpreter forWidget() {
        return new LocalInterpreter(randomId(), false, null);
    }

    /** Reopens a conversation from this browser's history; null if the id is not one of ours. */
    public static LocalInterpreter reopen(String conversationId) {
        return conversationId.matches("[0-9a-f]{32}") ? new LocalInterpreter(conversationId, true, null) : null;
    }

    @Override
    public void connect(Listener listener) {
        this.listener = listener;
        listener.onDescription("Local · in this browser");
        listener.onState("loading Python");
        history.load(this::replay);
        history.loadFiles(files::restore);
        frame.listen(this::receive); // a frame started ahead may be ready already
    }

    /** Shows the stored conversation; a run the reload cut off is closed as interrupted. */
    private void replay(List<SessionEvent> events, String error) {
        if (closed) {
            return;
        }
        if (error != null) {
            listener.onProblem("Could not read this conversation from the browser's storage: " + error);
        }
        Set<String> open = new LinkedHashSet<>();
        Set<String> openTurns = new LinkedHashSet<>();
        for (SessionEvent e : events) {
            seq = Math.max(seq, e.seq());
            if (e.event() instanceof Event.Queued) {
                open.add(e.executionId());
            } else if (e.event() instanceof Event.Finished) {
                open.remove(e.executionId());
            } else if (e.event() instanceof Event.Prompt) {
                openTurns.add(e.executionId());
            } else if (e.event() instanceof Event.AssistantDone) {
                openTurns.remove(e.executionId());
            }
            log.add(e);
            listener.onEvent(e);
        }
        for (String executionId : open) {
            emit(executionId, new Event.Finished(Status.INTERRUPTED, null, null, null, null));
        }
        for (String turnId : openTurns) {
            emit(turnId, new Event.AssistantDone(AssistantStatus.STOPPED, "the page was reloaded during the answer"));
        }
        if (!events.isEmpty()) {
            emit(NO_EXECUTION, new Event.Restarted("the page was reloaded; outputs and workspace files come back from this "
                    + "browser's storage"));
        }
    }

    private void receive(RuntimeFrameMessage.FromFrame message, JSObject bytes) {
        if (closed) {
            return;
        }
        boolean afterRestartedLine = restartedLine;
        restartedLine = false;
        switch (message.type()) {
            case LOADING:
                listener.onState(((RuntimeFrameMessage.Loading) message).message());
                break;
            case READY: {
                RuntimeFrameMessage.Ready ready = (RuntimeFrameMessage.Ready) message;
                listener.onDescription("Local · Pyodide " + ready.pyodide() + " · in this browser");
                if (ready.maxTimeoutMs() > 0) {
                    listener.onCellTimeouts(ready.timeoutMs(), ready.maxTimeoutMs());
                }
                listener.onState(ready.isolated() ? "ready" : "ready (interrupt restarts Python)");
                listener.onProblem(null);
                break;
            }
            case RUNNER:
                runnerLine(((RuntimeFrameMessage.Runner) message).line());
                break;
            case RESET:
                // A reset during a cell is reported by that cell's own `restarted` line.
                if (!afterRestartedLine) {
                    emit(NO_EXECUTION, new Event.Restarted(((RuntimeFrameMessage.Reset) message).reason()));
                }
                break;
            case FATAL:
                listener.onState("failed");
                listener.onProblem("Local Python could not start: " + ((RuntimeFrameMessage.Fatal) message).message());
                break;
            case FILE_WRITTEN:
            case FILES:
            case FILE_CONTENT:
            case FILE_DELETED:
            case FILE_ERROR:
                files.receive((RuntimeFrameMessage.FileReply) message, bytes);
                break;
            default: // messages to the frame are never decoded as ones from it
                break;
        }
    }

    private void runnerLine(String line) {
        RunnerMessage message;
        try {
            message = line == null ? null : WireCodec.decodeRunnerLine(line);
        } catch (RuntimeException e) {
            return;
        }
        if (message instanceof RunnerMessage.CellEvent c && unfinished.contains(c.executionId())) {
            if (c.event() instanceof Event.Artifact a) {
                files.keep(a.name());
            } else if (c.event() instanceof Event.Finished) {
                unfinished.remove(c.executionId());
                files.forgetRemoved();
            }
            restartedLine = c.event() instanceof Event.Restarted;
            emit(c.executionId(), c.event());
        }
    }

    private void emit(String executionId, Event event) {
        SessionEvent e = new SessionEvent(++seq, executionId, (long) Browser.now(), event);
        history.append(e);
        if (event instanceof Event.Finished || event instanceof Event.AssistantDone) {
            history.flush();
        }
        log.add(e);
        listener.onEvent(e);
        if (assistant != null) {
            assistant.observe(e);
        }
    }

    /**
     * Uses {@code endpoint} for prompts from now on (null: no assistant, and nothing is requested).
     * A turn still running with the previous endpoint is stopped, and its relay frame removed.
     */
    public void useEndpoint(LocalEndpoint endpoint) {
        if (assistant != null) {
            assistant.close();
        }
        assistant = endpoint == null ? null
                : new LocalAssistant(endpoint, this::emit,
                        // its cells get the frame's default timeout, as the server's assistant gives its cells the server's
                        (code, language) -> start(code, language, null), this::interrupt, () -> new ArrayList<>(log));
    }

    @Override
    public boolean prompt(String text) {
        if (assistant == null) {
            listener.onRefused(text, "Set up a model endpoint for local mode first (\"Model endpoint for local mode\", above the editor); your question is back.");
        } else if (assistant.running()) {
            listener.onRefused(text, "The assistant is still answering; stop it or wait. Your question is back in the composer.");
        } else {
            assistant.ask("a" + (seq + 1) + "-" + randomId().substring(0, 8), text);
        }
        return true;
    }

    @Override
    public void stop() {
        if (assistant != null) {
            assistant.stop();
        }
    }

    @Override
    public boolean execute(String code, Language language) {
        start(code, language, null);
        return true;
    }

    /** The cell gets {@code timeoutSeconds} (the conversation's own), or the frame's default when null. */
    @Override
    public boolean execute(String code, Language language, List<String> packages, Double timeoutSeconds) {
        if (!packages.isEmpty()) {
            return Interpreter.super.execute(code, language, packages); // refuses them: packages install in server mode only
        }
        start(code, language, timeoutSeconds == null ? null : Math.round(timeoutSeconds * 1000));
        return true;
    }

    private String start(String code, Language language, Long timeoutMs) {
        String executionId = "l" + (seq + 1) + "-" + randomId().substring(0, 8);
        unfinished.add(executionId);
        emit(executionId, new Event.Queued(code, language));
        frame.post(new RuntimeFrameMessage.Execute(executionId, code, language, timeoutMs));
        return executionId;
    }

    @Override
    public void interrupt() {
        frame.post(new RuntimeFrameMessage.Interrupt());
    }

    @Override
    public void reply(String value) {
        frame.post(new RuntimeFrameMessage.InputReply(value));
    }

    @Override
    public void restart() {
        frame.post(new RuntimeFrameMessage.Restart());
    }

    @Override
    public void close() {
        closed = true;
        if (assistant != null) {
            assistant.close();
        }
        history.flush();
        frame.remove();
    }

    @Override
    public WorkspaceFiles files() {
        return files;
    }

    @Override
    public String route() {
        return ROUTE_PREFIX + conversationId;
    }

    /** The notebook of the history as this browser's IndexedDB holds it (written out first), built as the server builds it. */
    @Override
    public void notebook(NotebookFile done) {
        history.flush();
        history.load((events, error) -> {
            if (error != null) {
                done.ready(null, null, "Could not read this conversation from the browser's storage: " + error);
            } else {
                done.ready(LocalNotebook.blobUrl(events), NotebookExport.fileName(conversationId), null);
            }
        });
    }

    /** 128 random bits from the browser's CSPRNG, as 32 hex digits. */
    private static String randomId() {
        Uint8Array bytes = randomBytes(16);
        StringBuilder hex = new StringBuilder();
        for (int i = 0; i < bytes.getLength(); i++) {
            hex.append(Integer.toHexString(bytes.get(i) + 256).substring(1));
        }
        return hex.toString();
    }

    @JSBody(params = "n", script = "return crypto.getRandomValues(new Uint8Array(n));")
    private static native Uint8Array randomBytes(int n);
}
