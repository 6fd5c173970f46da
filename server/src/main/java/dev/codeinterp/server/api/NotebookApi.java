package dev.codeinterp.server.api;

import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.notebook.NotebookExport;
import dev.codeinterp.server.session.Session;
import dev.codeinterp.server.session.SessionManager;
import io.javalin.http.Context;

import java.util.function.Consumer;

/**
 * {@code GET /api/v1/sessions/{id}/notebook.ipynb}: the conversation as a Jupyter notebook, built by
 * shared-model's {@link NotebookExport} from the stored events (local mode builds the same file in
 * the browser). Authorised by the session token like every session endpoint; served as an
 * attachment that a browser neither sniffs nor runs, since its outputs are the code's.
 */
final class NotebookApi {
    private final SessionManager sessions;

    NotebookApi(SessionManager sessions) {
        this.sessions = sessions;
    }

    void export(Context ctx) {
        Session session = RestApi.authorised(sessions, ctx);
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
        ctx.header("Content-Disposition", FilesApi.contentDisposition(NotebookExport.fileName(session.id())));
        ctx.header("Content-Security-Policy", ContentSecurityPolicy.DOWNLOAD.toString());
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.contentType(NotebookExport.MIME).result(body);
    }
}
