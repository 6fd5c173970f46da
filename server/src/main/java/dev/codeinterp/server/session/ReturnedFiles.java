package dev.codeinterp.server.session;

import dev.codeinterp.model.rest.ExecuteResponse;
import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.files.WorkspaceException;
import dev.codeinterp.server.files.WorkspaceFile;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/** The files a one-shot run wrote, with their content while it fits one response's budget (REST and MCP alike). */
final class ReturnedFiles {
    private ReturnedFiles() {
    }

    /** {@code howToGetThem} finishes the note on a file past the budget, e.g. "run in a session and download them". */
    static List<ExecuteResponse.ReturnedFile> since(Workspace workspace, Map<String, Workspace.Stamp> before,
                                                    long budget, String howToGetThem) {
        List<ExecuteResponse.ReturnedFile> out = new ArrayList<>();
        long left = budget;
        for (WorkspaceFile f : workspace.changedSince(before)) {
            if (f.size() > left) {
                out.add(new ExecuteResponse.ReturnedFile(f.name(), f.size(), null,
                        "the files exceed the " + budget + "-byte limit of one response; " + howToGetThem));
                continue;
            }
            try (Workspace.OpenFile open = workspace.open(f.name()); InputStream in = Channels.newInputStream(open.channel())) {
                byte[] content = in.readNBytes((int) Math.min(left, Integer.MAX_VALUE - 16));
                left -= content.length;
                out.add(new ExecuteResponse.ReturnedFile(f.name(), content.length, Base64.getEncoder().encodeToString(content), null));
            } catch (IOException | WorkspaceException e) {
                out.add(new ExecuteResponse.ReturnedFile(f.name(), f.size(), null, "could not be read: " + e.getMessage()));
            }
        }
        return out;
    }
}
