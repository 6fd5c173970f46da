package dev.codeinterp.server.api;

import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.notebook.NotebookExport;
import dev.codeinterp.server.session.Session;
import dev.codeinterp.server.session.SessionElsewhereException;
import dev.codeinterp.server.session.SessionLostException;
import dev.codeinterp.server.session.SessionManager;
import io.javalin.http.Context;

import java.util.List;
import java.util.function.Consumer;

/**
 * {@code GET /api/v1/sessions/{id}/notebook.ipynb}: the conversation as a Jupyter notebook, built by
 * shared-model's {@link NotebookExport} from the stored events (local mode builds the same file in
 * the browser). Authorised by the session token like every session endpoint; served as an
 * attachment that a browser neither sniffs nor runs, since its outputs are the code's.
 */
final class NotebookApi {
    private static final int PAGE = 1000;
    private final SessionManager sessions;
    private final Clients clients;

    NotebookApi(SessionManager sessions, Clients clients) {
        this.sessions = sessions;
        this.clients = clients;
    }

    void export(Context ctx) {
        Session session;
        try {
            session = RestApi.authorised(sessions, clients, ctx);
        } catch (SessionLostException | SessionElsewhereException e) {
            exportStored(ctx);
            return;
        }
        NotebookExport notebook = new NotebookExport();
        // The stored events, replayed in seq order; a live event that slips in before we leave comes after them
        Consumer<SessionEvent> sink = e -> {
            synchronized (notebook) {
                notebook.add(e);
            }
        };
        session.subscribe(0, sink);
        session.unsubscribe(sink);
        String body;
        synchronized (notebook) {
            body = notebook.toJson();
        }
        send(ctx, session.id(), body);
    }

    /** A session not open here (lost with its node, or on another): its notebook from the store alone. */
    private void exportStored(Context ctx) {
        String id = ctx.pathParam("id");
        dev.codeinterp.server.session.SessionKey key = clients.sessionKey(RestApi.bearer(ctx));
        NotebookExport notebook = new NotebookExport();
        long after = 0;
        while (true) {
            List<SessionEvent> page = sessions.storedHistory(id, key, after, PAGE).events();
            page.forEach(notebook::add);
            if (page.size() < PAGE) {
                break;
            }
            after = page.get(page.size() - 1).seq();
        }
        send(ctx, id, notebook.toJson());
    }

    private static void send(Context ctx, String sessionId, String body) {
        ctx.header("Content-Disposition", FilesApi.contentDisposition(NotebookExport.fileName(sessionId)));
        ctx.header("Content-Security-Policy", ContentSecurityPolicy.DOWNLOAD.toString());
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.contentType(NotebookExport.MIME).result(body);
    }
}
