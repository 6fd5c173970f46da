package dev.codeinterp.server.cluster;

import dev.codeinterp.server.session.SessionId;
import dev.codeinterp.server.session.SessionManager;
import dev.codeinterp.server.session.residency.SessionMoves;
import dev.codeinterp.server.store.NodeRepository;
import dev.codeinterp.server.store.StoredNode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A suspended session handed from one node to another: the giver sends its folder (checkpoint and
 * files, one tar) to the taker's {@code PUT /internal/v1/sessions/{id}} with a {@link NodeProof};
 * the taker unpacks it and takes the session's row in one conditional write, and only then answers
 * 204. The giver forgets the session after that answer, so a move cut short anywhere leaves the
 * session whole on exactly one node (the giver's folder stays until the row says otherwise).
 */
public final class SessionHandover {
    public static final String PATH = "/internal/v1/sessions/{id}";
    public static final String FROM = "X-CodeInterp-From";
    public static final String PROOF = "X-CodeInterp-Proof";
    /** The session ran on the giver: the taker brings it back at once, as its users are at work. */
    public static final String WAS_RUNNING = "X-CodeInterp-Was-Running";

    private final NodeRepository nodes;
    private final NodeIdentity me;
    private final SessionManager sessions;
    private final long maxBytes;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** {@code maxBytes}: the most one session's folder may weigh when it arrives (its checkpoint and files). */
    public SessionHandover(NodeRepository nodes, NodeIdentity me, SessionManager sessions, long maxBytes) {
        this.nodes = nodes;
        this.me = me;
        this.sessions = sessions;
        this.maxBytes = maxBytes;
    }

    /** Sends session {@code id}'s {@code folder} to {@code to}; returns once its row is {@code to}'s, else throws. */
    void send(StoredNode to, String id, SessionMoves.Folder folder, boolean wasRunning) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(to.url() + PATH.replace("{id}", id)))
                .timeout(Duration.ofMinutes(5))
                .header(FROM, me.id())
                .header(PROOF, NodeProof.sign(me.keyHash(), what(id), System.currentTimeMillis()))
                .header(WAS_RUNNING, Boolean.toString(wasRunning))
                .PUT(HttpRequest.BodyPublishers.ofInputStream(() -> {
                    try {
                        return folder.open();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }))
                .build();
        HttpResponse<String> answer;
        try {
            answer = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException | UncheckedIOException e) {
            throw new HandoverFailedException("node " + to.id() + " could not be reached: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HandoverFailedException("interrupted while handing the session to node " + to.id());
        }
        if (answer.statusCode() != 204) {
            throw new HandoverFailedException("node " + to.id() + " refused it: " + answer.statusCode() + " " + answer.body());
        }
    }

    /**
     * A session handed to this node by node {@code from}: {@link Outcome#TAKEN}, or why not. The
     * proof is checked, and the id's shape, before anything is written.
     */
    public Outcome receive(String id, String from, String proof, boolean wasRunning, InputStream folder) {
        if (SessionId.parse(id).isEmpty() || from == null || from.equals(me.id())
                || !NodeProof.verify(nodes, from, what(id), proof, System.currentTimeMillis())) {
            return Outcome.NOT_A_NODE;
        }
        return sessions.residency().moves().arrive(id, from, folder, maxBytes, wasRunning) ? Outcome.TAKEN : Outcome.NOT_ITS_TO_GIVE;
    }

    public enum Outcome { TAKEN, NOT_A_NODE, NOT_ITS_TO_GIVE }

    private static String what(String id) {
        return "handover\n" + id;
    }
}
