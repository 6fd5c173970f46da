package dev.codeinterp.web.embed;

import dev.codeinterp.model.embed.EmbedMessage;
import dev.codeinterp.model.rules.MimeTypes;
import dev.codeinterp.web.bindings.EmbedChannel;
import dev.codeinterp.web.session.WorkspaceFiles;
import org.teavm.jso.JSObject;

/**
 * The host's file requests ({@code putFile}, {@code listFiles}, {@code getFile}) on the widget's
 * workspace, whichever mode holds it: through the same {@link WorkspaceFiles} the app's files
 * panel uses, so names and limits are checked where they always are.
 */
final class HostFiles {
    interface Sender {
        void send(EmbedMessage.FromWidget message, JSObject bytes);
    }

    private final Sender sender;

    HostFiles(Sender sender) {
        this.sender = sender;
    }

    void handle(EmbedMessage.ToWidget request, JSObject bytes, WorkspaceFiles workspace) {
        String id = request.id();
        switch (request.type()) {
            case PUT_FILE: {
                String name = ((EmbedMessage.PutFile) request).name();
                if (bytes == null) {
                    sender.send(new EmbedMessage.Failure(id, "putFile needs the file's bytes (a Blob or an ArrayBuffer)."), null);
                    return;
                }
                workspace.upload(EmbedChannel.toFile(bytes, name), (loaded, total) -> { },
                        error -> sender.send(error == null ? new EmbedMessage.Reply(id, null, null)
                                : new EmbedMessage.Failure(id, error), null));
                break;
            }
            case LIST_FILES:
                workspace.list((list, error) -> sender.send(list == null ? new EmbedMessage.Failure(id, error)
                        : new EmbedMessage.FileList(id, list), null));
                break;
            case GET_FILE: {
                String name = ((EmbedMessage.GetFile) request).name();
                workspace.preview(name, url -> {
                    if (url == null) {
                        sender.send(new EmbedMessage.Failure(id, name + " is not in the workspace."), null);
                        return;
                    }
                    EmbedChannel.readBlobUrl(url, content -> sender.send(content == null
                            ? new EmbedMessage.Failure(id, name + " could not be read.")
                            : new EmbedMessage.FileContent(id, name, MimeTypes.of(name)), content));
                });
                break;
            }
            default:
                break;
        }
    }
}
