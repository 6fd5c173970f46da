package dev.codeinterp.server.assistant;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.assistant.ChatMessage;
import dev.codeinterp.model.assistant.Conversation;
import dev.codeinterp.server.config.AssistantSettings;
import dev.codeinterp.server.session.CellLimits;
import dev.codeinterp.server.session.Session;
import dev.codeinterp.server.session.Tokens;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;

/**
 * The assistant of every session: starts a turn for a prompt (one at a time per session), stops
 * it on request. Off, and calling nothing, when no endpoint is configured.
 */
public final class Assistant implements AutoCloseable {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(Assistant.class);
    /** Longer prompts are refused: they would go to the endpoint whole. */
    public static final int MAX_PROMPT_CHARS = 100_000;
    private static final int MAX_HISTORY_EVENTS = 50_000;

    private final AssistantSettings settings;
    private final ChatClient client;
    private final AssistantTools tools;
    private final ExecutorService turns = Executors.newCachedThreadPool(daemon("assistant-turn"));
    private final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(daemon("assistant-watchdog"));
    private final Map<String, AssistantTurn> running = new ConcurrentHashMap<>();

    /** {@code cells}: what the model's {@code run_code} cells may ask for, as any other cell. */
    public Assistant(AssistantSettings settings, CellLimits cells) {
        this.settings = settings;
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).followRedirects(HttpClient.Redirect.NEVER).build();
        this.client = settings.enabled() ? new ChatClient(settings, http, watchdog) : null;
        this.tools = new AssistantTools(cells, settings.toolOutputChars());
    }

    public boolean enabled() {
        return settings.enabled();
    }

    /** The model prompts go to, or null when off. */
    public String model() {
        return settings.model();
    }

    /**
     * Records the prompt and starts the turn; returns its id. Refused (nothing recorded) when the
     * assistant is off, the prompt is empty or too long, or this session's assistant is still answering.
     */
    public String ask(Session session, String text) {
        if (!enabled()) {
            throw new IllegalStateException("the assistant is off on this server: no model endpoint is configured"); // the how: /healthz, README
        }
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("the prompt is empty");
        }
        if (text.length() > MAX_PROMPT_CHARS) {
            throw new IllegalArgumentException("the prompt is longer than " + MAX_PROMPT_CHARS + " characters");
        }
        String turnId = Tokens.newId();
        // under one lock with the end of a turn: the history read holds the previous turn whole,
        // and a turn's prompt never lands between another's last events
        synchronized (running) {
            if (running.containsKey(session.id())) {
                throw new IllegalStateException("the assistant is still answering; stop it or wait");
            }
            List<ChatMessage> messages = Conversation.from(history(session), turnId);
            messages.add(ChatMessage.user(text));
            AssistantTurn turn = new AssistantTurn(session, turnId, messages, client, tools, settings.maxToolRounds());
            running.put(session.id(), turn);
            try {
                session.recordTurnEvent(turnId, new Event.Prompt(text));
                turns.execute(() -> finish(session, turnId, turn));
            } catch (RuntimeException e) {
                running.remove(session.id(), turn);
                throw e;
            }
        }
        return turnId;
    }

    private void finish(Session session, String turnId, AssistantTurn turn) {
        Event.AssistantDone done = null;
        try {
            done = turn.run();
        } finally {
            synchronized (running) {
                running.remove(session.id(), turn);
                try {
                    session.recordTurnEvent(turnId, done != null ? done
                            : new Event.AssistantDone(dev.codeinterp.model.AssistantStatus.ERROR, "The assistant failed inside this server."));
                } catch (RuntimeException e) {
                    log.warn("could not record the end of assistant turn {}", turnId, e);
                }
            }
        }
    }

    /** Stops this session's turn, if one runs: the upstream request is cancelled and its running cell interrupted. */
    public boolean stop(Session session) {
        AssistantTurn turn = running.get(session.id());
        if (turn == null) {
            return false;
        }
        turn.cancel.cancel();
        return true;
    }

    private static List<SessionEvent> history(Session session) {
        List<SessionEvent> stored = java.util.Collections.synchronizedList(new ArrayList<>());
        Consumer<SessionEvent> sink = e -> {
            if (stored.size() < MAX_HISTORY_EVENTS) {
                stored.add(e);
            }
        };
        session.subscribe(0, sink); // subscribe-and-leave: the stored log, consistently
        session.unsubscribe(sink);
        synchronized (stored) {
            return new ArrayList<>(stored);
        }
    }

    @Override
    public void close() {
        running.values().forEach(t -> t.cancel.cancel());
        turns.shutdown();
        watchdog.shutdownNow();
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }
}
