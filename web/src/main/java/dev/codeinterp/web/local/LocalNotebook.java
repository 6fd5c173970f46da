package dev.codeinterp.web.local;

import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.notebook.NotebookExport;
import dev.codeinterp.web.bindings.FileTransfer;
import org.teavm.jso.JSBody;
import org.teavm.jso.JSObject;

import java.util.List;

/** A local conversation's notebook, built in this browser by the same shared-model code the server uses. */
final class LocalNotebook {
    private LocalNotebook() {
    }

    static String blobUrl(List<SessionEvent> events) {
        return FileTransfer.blobUrl(utf8(NotebookExport.of(events)), NotebookExport.MIME);
    }

    @JSBody(params = "text", script = "return new TextEncoder().encode(text);")
    private static native JSObject utf8(String text);
}
