package dev.codeinterp.web.server;

import dev.codeinterp.model.notebook.NotebookExport;
import dev.codeinterp.web.bindings.FileTransfer;
import dev.codeinterp.web.session.Interpreter;

/** A server session's notebook: the server builds it from its stored events; fetched with the token into a blob: URL. */
final class ServerNotebook {
    private ServerNotebook() {
    }

    static void fetch(String sessionId, String token, Interpreter.NotebookFile done) {
        FileTransfer.fetchBlobUrl("/api/v1/sessions/" + sessionId + "/notebook.ipynb", token, (status, url) -> {
            if (url != null) {
                done.ready(url, NotebookExport.fileName(sessionId), null);
            } else if (status == 0) {
                done.ready(null, null, "The notebook could not be exported: the server did not answer.");
            } else {
                done.ready(null, null, "The server could not export the notebook (" + status + ").");
            }
        });
    }
}
