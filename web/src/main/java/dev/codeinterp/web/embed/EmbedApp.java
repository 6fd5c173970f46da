// Over 300 lines: the one root that ties the interpreter, composer and session-start callbacks to the host's requests (Runs and HostFiles hold the rest).
package dev.codeinterp.web.embed;

import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.model.embed.EmbedMessage;
import dev.codeinterp.model.Event;
import dev.codeinterp.model.Language;
import dev.codeinterp.model.rest.ExecuteResponse;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.web.bindings.EmbedChannel;
import dev.codeinterp.web.local.LocalInterpreter;
import dev.codeinterp.web.server.ServerSession;
import dev.codeinterp.web.server.Credentials;
import dev.codeinterp.web.server.SessionStarter;
import dev.codeinterp.web.session.Interpreter;
import dev.codeinterp.web.view.Composer;
import dev.codeinterp.web.view.ConversationView;
import dev.codeinterp.web.view.Dom;
import dev.codeinterp.web.view.StatusLine;
import org.teavm.jso.JSObject;
import org.teavm.jso.dom.html.HTMLElement;

/**
 * The embed widget's composition root ({@code /embed}, docs/embed.md): the app's own views and
 * interpreters in a root of their own, driven by the host page over the channel. Nothing starts
 * (no session, no Python) until the parent's origin checked out; the session token stays here.
 */
public final class EmbedApp implements Interpreter.Listener, Composer.Actions, SessionStarter.Listener {
    private static final String CAPABILITIES = "run,setCode,getCode,setTheme,setOptions,reset,clear,"
            + "ready,status,stream,display,input_request,file,finished,resize,codechange";

    private final EmbedOptions options = EmbedOptions.fromFragment();
    private final HTMLElement root = Dom.el("div", "embed");
    private final StatusLine status = new StatusLine();
    private final Composer composer = new Composer(this);
    private final Runs runs = new Runs();
    private final HostFiles files = new HostFiles(this::send);
    private EmbedChannel.Port port;
    private ConversationView conversation;
    private Interpreter interpreter;
    private SessionStarter starter;
    /** An API key the host gave, or null. */
    private String key;
    private boolean keyWanted;
    private boolean hostKeyTried;
    private boolean ready;
    private boolean started;
    /** The files option's files are on their way into the workspace: nothing runs before they are in. */
    private boolean loadingFiles;
    private String description = "";
    private String state = "starting";
    /** Why no cell can run, or null. */
    private String unusable;

    public static void main(String[] args) {
        new EmbedApp().start();
    }

    private void start() {
        Dom.document().getBody().getClassList().add("embed-body");
        Dom.document().getBody().appendChild(root);
        if (!options.theme.equals("auto")) {
            EmbedChannel.setTheme(options.theme);
        }
        port = EmbedChannel.open(CAPABILITIES, this::refuse, this::begin, this::hostConnected, this::receive);
        EmbedChannel.observeHeight(root, h -> send(new EmbedMessage.Resize(capped(h))));
    }

    /** The parent may not embed us: say so, start nothing. */
    private void refuse(String sentence) {
        unusable = sentence;
        Dom.clear(root);
        HTMLElement p = Dom.text("p", "embed-refused", "This code widget cannot run here. " + sentence);
        p.setAttribute("data-testid", "embed-refused");
        root.appendChild(p);
    }

    /** The parent's origin checked out: {@code pageOrigin} is the host page's, which a publishable key is bound to. */
    private void begin(String pageOrigin) {
        composer.setCode(options.code);
        if (options.runtime == EmbedOptions.Runtime.BROWSER) {
            open(LocalInterpreter.forWidget());
            return;
        }
        status.describe("Server");
        status.connection("starting a session");
        starter = new SessionStarter(this, Credentials.forWidgetOn(pageOrigin));
        starter.start();
    }

    private void open(Interpreter next) {
        interpreter = next;
        conversation = new ConversationView(f -> composer.setRunning(conversation.running()), next.files(),
                options.editable() ? "Write Python below and press Shift+Enter to run it." : "");
        conversation.answerInputWith(next::reply);
        layout();
        next.connect(this);
    }

    /** The parts the options ask for: status line (full), outputs, editor (unless readonly or output only). */
    private void layout() {
        Dom.clear(root);
        if (options.ui.equals("full")) {
            root.appendChild(status.root());
        }
        if (conversation != null) {
            root.appendChild(conversation.root());
        }
        if (options.editable()) {
            root.appendChild(composer.root());
        }
    }

    private void hostConnected(String hostKey) {
        key = hostKey;
        if (keyWanted && key != null && starter != null) {
            keyWanted = false;
            hostKeyTried = true;
            starter.useKey(key);
        }
        send(new EmbedMessage.StatusChange(state));
        if (ready) {
            send(new EmbedMessage.Ready(runtime(), description));
        }
        send(new EmbedMessage.Resize(capped(root.getOffsetHeight())));
    }

    private void receive(String json, JSObject bytes) {
        EmbedMessage.ToWidget m;
        try {
            m = WireCodec.decodeEmbedRequest(json);
        } catch (RuntimeException e) {
            return; // not a request of the protocol; without an id it cannot be answered
        }
        switch (m.type()) {
            case RUN: {
                EmbedMessage.Run r = (EmbedMessage.Run) m;
                Language language;
                try {
                    language = Language.fromWire(r.language());
                } catch (IllegalArgumentException e) {
                    send(new EmbedMessage.Failure(r.id(), e.getMessage()));
                    return;
                }
                if (unusable != null) {
                    send(new EmbedMessage.Failure(r.id(), unusable));
                } else {
                    submit(new Runs.Run(r.id(), r.code(), language, false));
                }
                return;
            }
            case SET_CODE:
                composer.setCode(((EmbedMessage.SetCode) m).code());
                break;
            case GET_CODE:
                send(new EmbedMessage.Reply(m.id(), null, composer.code()));
                return;
            case SET_THEME:
                EmbedChannel.setTheme(((EmbedMessage.SetTheme) m).theme());
                break;
            case SET_OPTIONS: {
                options.apply((EmbedMessage.SetOptions) m);
                if (unusable == null) {
                    layout();
                }
                send(new EmbedMessage.Resize(capped(root.getOffsetHeight()))); // a new cap with the same content
                break;
            }
            case RESET:
                if (interpreter != null) {
                    interpreter.restart();
                }
                break;
            case CLEAR: {
                boolean restart = ((EmbedMessage.Clear) m).restart();
                if (restart && interpreter != null) {
                    interpreter.restart();
                }
                if (conversation != null) {
                    conversation.clear(restart); // the height follows: the observer sends the smaller one
                }
                break;
            }
            case PUT_FILE:
            case LIST_FILES:
            case GET_FILE:
                if (interpreter == null) {
                    send(new EmbedMessage.Failure(m.id(), unusable != null ? unusable : "The interpreter is not ready yet."));
                } else {
                    files.handle(m, bytes, interpreter.files());
                }
                return;
            default:
                break;
        }
        send(new EmbedMessage.Reply(m.id(), null, null));
    }

    private void submit(Runs.Run run) {
        runs.hold(run);
        flush();
    }

    /** Sends the held cells once the interpreter was first ready and its files and setup code are ahead of them. */
    private void flush() {
        if (interpreter != null && started && !loadingFiles) {
            runs.flush(interpreter::execute);
        }
    }

    /** Once the interpreter is first ready: the files, the hidden setup code, then the code if it should run by itself. */
    private void startOnce() {
        if (started) {
            return;
        }
        started = true;
        if (options.files.isEmpty()) {
            setUp();
            return;
        }
        loadingFiles = true;
        status.connection("loading files");
        ManifestFiles.load(options.files, interpreter.files(), error -> {
            loadingFiles = false;
            if (error != null) {
                onEnded(error); // setup code and cells would meet a workspace without their files
                return;
            }
            status.connection(state);
            setUp();
            flush();
        });
    }

    private void setUp() {
        if (!options.prerun.isBlank()) {
            submit(new Runs.Run(null, options.prerun, options.language(), true));
        }
        if (options.autorun == EmbedOptions.Autorun.YES) {
            runEditorCode();
        } else if (options.autorun == EmbedOptions.Autorun.VISIBLE) {
            EmbedChannel.whenVisible(root, this::runEditorCode);
        }
    }

    private void runEditorCode() {
        String code = composer.code();
        if (!code.isBlank()) {
            submit(new Runs.Run(null, code, options.language(), false));
        }
    }

    /** To the host; dropped before the channel is open (connecting sends the state that matters). */
    private void send(EmbedMessage.FromWidget message) {
        send(message, null);
    }

    private void send(EmbedMessage.FromWidget message, JSObject bytes) {
        if (port != null) {
            port.post(WireCodec.encode(message), bytes);
        }
    }

    private long capped(double height) {
        long h = (long) Math.ceil(height);
        return options.maxHeight > 0 ? Math.min(h, options.maxHeight) : h;
    }

    private String runtime() {
        return interpreter instanceof LocalInterpreter ? "browser" : "server";
    }

    // Interpreter.Listener

    @Override
    public void onDescription(String text) {
        description = text;
        status.describe(text);
    }

    @Override
    public void onEvent(SessionEvent e) {
        Event event = e.event();
        Runs.Run run = event instanceof Event.Queued q ? runs.queued(e.executionId(), q.code()) : runs.of(e.executionId());
        if (run != null && run.hidden) {
            run.fold.add(event, 0);
            if (event instanceof Event.Finished) {
                runs.finished(e.executionId());
            }
            return; // the prerun is setup: neither shown nor reported
        }
        conversation.apply(e);
        if (event instanceof Event.Queued) {
            composer.setRunning(true);
        }
        EmbedMessage.FromWidget live = HostEvents.of(event, run == null ? null : run.requestId);
        if (live != null) {
            send(live);
        }
        if (run != null) {
            ExecuteResponse result = run.fold.add(event, run.seconds());
            if (result != null) {
                runs.finished(e.executionId());
                if (run.requestId != null) {
                    send(new EmbedMessage.Reply(run.requestId, result, null));
                }
            }
        }
    }

    @Override
    public void onState(String text) {
        state = text;
        status.connection(text);
        send(new EmbedMessage.StatusChange(text));
        if ("connected".equals(text) || text.startsWith("ready")) {
            if (!ready) {
                ready = true;
                send(new EmbedMessage.Ready(runtime(), description));
            }
            startOnce();
            flush();
        }
    }

    @Override
    public void onProblem(String message) {
        status.problem(message);
    }

    @Override
    public void onRefused(String code, String message) {
        Runs.Run run = runs.refused(code);
        if (run != null && run.requestId != null) {
            send(new EmbedMessage.Failure(run.requestId, message));
        } else if (run != null && !run.hidden) {
            composer.putBack(code);
            status.problem(message);
        }
    }

    @Override
    public void onEnded(String message) {
        unusable = message;
        status.problem(message);
        failAll(message);
    }

    private void failAll(String message) {
        for (Runs.Run run : runs.drain()) {
            if (run.requestId != null) {
                send(new EmbedMessage.Failure(run.requestId, message));
            }
        }
    }

    // Composer.Actions

    @Override
    public void run(String code) {
        submit(new Runs.Run(null, code, options.language(), false));
    }

    @Override
    public void interrupt() {
        if (interpreter != null) {
            interpreter.interrupt();
        }
    }

    @Override
    public void restart() {
        if (interpreter != null) {
            interpreter.restart();
        }
    }

    @Override
    public void newSession() {
        restart();
    }

    // SessionStarter.Listener

    @Override
    public void started(ServerSession session) {
        open(session);
    }

    @Override
    public void keyNeeded(boolean refused) {
        status.connection("API key needed");
        if (key != null && !hostKeyTried) {
            hostKeyTried = true;
            starter.useKey(key);
            return;
        }
        keyWanted = true;
        String sentence = hostKeyTried ? "The server did not accept the widget's API key." : "The server wants an API key: pass `key` to mount().";
        status.problem(sentence);
        if (hostKeyTried) {
            unusable = sentence;
            failAll(sentence);
        }
    }

    @Override
    public void waiting(String sentence) {
        status.connection("waiting for the server");
        status.problem(sentence);
    }

    @Override
    public void failed(String sentence) {
        starter = null;
        if (options.runtime == EmbedOptions.Runtime.AUTO) {
            status.problem(sentence + " Running in this browser instead.");
            open(LocalInterpreter.forWidget());
            return;
        }
        unusable = sentence;
        status.connection("offline");
        status.problem(sentence);
        failAll(sentence);
    }
}
