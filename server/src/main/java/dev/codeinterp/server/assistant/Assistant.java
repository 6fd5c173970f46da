package dev.codeinterp.server.assistant;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.server.config.AssistantSettings;
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
    /** Longer prompts are refused: they would go to the endpoint whole. */
    public static final int MAX_PROMPT_CHARS = 100_000;
    private static final int MAX_HISTORY_EVENTS = 50_000;

    private final AssistantSettings settings;
    private final ChatClient client;
    private final AssistantTools tools;
    private final ExecutorService turns = Executors.newCachedThreadPool(daemon("assistant-turn"));
    private final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(daemon("assistant-watchdog"));
    private final Map<String, AssistantTurn> running = new ConcurrentHashMap<>();

    public Assistant(AssistantSettings settings, Duration cellTimeout) {
        this.settings = settings;
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).followRedirects(HttpClient.Redirect.NEVER).build();
        this.client = settings.enabled() ? new ChatClient(settings, http, watchdog) : null;
        this.tools = new AssistantTools(cellTimeout, settings.toolOutputChars());
    }

    public boolean enabled() {
        return settings.enabled();
    }

    /**
     * Records the prompt and starts the turn; returns its id. Refused (nothing recorded) when the
     * assistant is off, the prompt is empty or too long, or this session's assistant is still answering.
     */
    public String ask(Session session, String text) {
        if (!enabled()) {
            throw new IllegalStateException("the assistant is off: set CODEINTERP_LLM_BASE_URL and CODEINTERP_LLM_MODEL");
        }
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("the prompt is empty");
        }
        if (text.length() > MAX_PROMPT_CHARS) {
            throw new IllegalArgumentException("the prompt is longer than " + MAX_PROMPT_CHARS + " characters");
        }
        String turnId = Tokens.newId();
        List<ChatMessage> messages = Conversation.from(history(session), turnId);
        messages.add(ChatMessage.user(text));
        AssistantTurn turn = new AssistantTurn(session, turnId, messages, client, tools, settings.maxToolRounds());
        if (running.putIfAbsent(session.id(), turn) != null) {
            throw new IllegalStateException("the assistant is still answering; stop it or wait");
        }
        try {
            session.recordTurnEvent(turnId, new Event.Prompt(text));
            turns.execute(() -> {
                try {
                    turn.run();
                } finally {
                    running.remove(session.id(), turn);
                }
            });
        } catch (RuntimeException e) {
            running.remove(session.id(), turn);
            throw e;
        }
        return turnId;
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

    /** Whether this session's assistant is answering now. */
    public boolean answering(Session session) {
        return running.containsKey(session.id());
    }

    private static List<SessionEvent> history(Session session) {
        List<SessionEvent> log = java.util.Collections.synchronizedList(new ArrayList<>());
        Consumer<SessionEvent> sink = e -> {
            if (log.size() < MAX_HISTORY_EVENTS) {
                log.add(e);
            }
        };
        session.subscribe(0, sink); // subscribe-and-leave: the stored log, consistently
        session.unsubscribe(sink);
        synchronized (log) {
            return new ArrayList<>(log);
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
