package dev.codeinterp.web.server;

import dev.codeinterp.model.health.Health;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.web.bindings.Browser;

import java.util.ArrayList;
import java.util.List;

/**
 * What this server says of itself on {@code /healthz} (its assistant, what becomes of idle
 * sessions), asked once a page and only for server mode: local mode asks nothing of the network.
 * Callers asking while the answer is on its way share it.
 */
public final class ServerHealth {
    public interface Answer {
        /** The server's health, or null when it did not answer or answered something unreadable (an older or odd server). */
        void ready(Health health);
    }

    private static Health known;
    private static List<Answer> waiting;

    private ServerHealth() {
    }

    public static void ask(Answer then) {
        if (known != null) {
            then.ready(known);
            return;
        }
        if (waiting != null) {
            waiting.add(then);
            return;
        }
        waiting = new ArrayList<>(List.of(then));
        Browser.request("GET", "/healthz", null, null, null, (status, body, retryAfter) -> {
            Health health = null;
            if (status == 200) {
                try {
                    health = WireCodec.decodeHealth(body);
                    known = health;
                } catch (RuntimeException unreadable) {
                    // an older or odd server: nothing known of it
                }
            }
            List<Answer> answers = waiting;
            waiting = null;
            for (Answer answer : answers) {
                answer.ready(health);
            }
        });
    }
}
