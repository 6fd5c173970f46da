package dev.codeinterp.server.api;

import dev.codeinterp.server.session.FileLinks;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Where this API serves a workspace file (the session's token is needed to fetch it): the
 * {@code url} of artifact events and of file listings, see docs/protocol.md.
 */
public final class DownloadLinks implements FileLinks {

    @Override
    public String url(String sessionId, String fileName) {
        return path(sessionId, fileName);
    }

    static String path(String sessionId, String fileName) {
        return "/api/v1/sessions/" + sessionId + "/files/"
                + URLEncoder.encode(fileName, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
