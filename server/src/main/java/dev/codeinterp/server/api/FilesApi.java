package dev.codeinterp.server.api;

import dev.codeinterp.model.rest.FileEntry;
import dev.codeinterp.model.rest.FileList;
import dev.codeinterp.model.rest.UploadedFiles;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.server.config.Settings;
import dev.codeinterp.server.files.Sizes;
import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.files.WorkspaceException;
import dev.codeinterp.server.files.WorkspaceFile;
import dev.codeinterp.model.rules.WorkspaceNames;
import dev.codeinterp.server.session.Session;
import dev.codeinterp.server.session.SessionManager;
import io.javalin.http.Context;
import io.javalin.http.UploadedFile;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The session workspace over REST: list, upload (raw PUT or multipart POST), download and delete.
 * Uploads stream to the workspace through a fixed buffer and are refused with 413 as soon as the
 * declared or counted size passes the limit. Downloads are attachments that a browser will neither
 * sniff nor run, and a link planted by code is never followed.
 */
final class FilesApi {
    /** Multipart framing allowance on top of the file itself. */
    private static final long MULTIPART_SLACK = 64 << 10;

    private final SessionManager sessions;
    private final Settings settings;
    private final Clients clients;

    FilesApi(SessionManager sessions, Settings settings, Clients clients) {
        this.clients = clients;
        this.sessions = sessions;
        this.settings = settings;
    }

    void list(Context ctx) {
        Session session = RestApi.authorised(sessions, clients, ctx);
        Workspace workspace = workspaceOf(session);
        List<FileEntry> files = new ArrayList<>();
        long used = 0;
        for (WorkspaceFile f : workspace.list()) {
            files.add(describe(session, f));
            used += f.size();
        }
        RestApi.json(ctx, 200, WireCodec.encode(new FileList(files, used, settings.workspaceBytes(), settings.maxUploadBytes())));
    }

    void put(Context ctx) throws IOException {
        Session session = RestApi.authorised(sessions, clients, ctx);
        String name = name(ctx);
        refuseDeclaredOversize(ctx, settings.maxUploadBytes());
        Workspace workspace = workspaceOf(session);
        long declared = ctx.req().getContentLengthLong();
        if (declared > workspace.freeBytes()) {
            ctx.header("Connection", "close");
            throw new WorkspaceException(WorkspaceException.Reason.FULL, "the workspace has " + Sizes.human(workspace.freeBytes())
                    + " free; '" + name + "' needs " + Sizes.human(declared) + ". Delete files to make room.");
        }
        try (InputStream body = ctx.req().getInputStream()) {
            WorkspaceFile stored = workspace.write(name, body, settings.maxUploadBytes());
            RestApi.json(ctx, 201, WireCodec.encode(describe(session, stored)));
        }
    }

    /** {@code multipart/form-data} with one or more parts named {@code file}, each stored under its own file name. */
    void upload(Context ctx) throws IOException {
        Session session = RestApi.authorised(sessions, clients, ctx);
        refuseDeclaredOversize(ctx, settings.maxUploadBytes() + MULTIPART_SLACK);
        String type = ctx.contentType();
        if (type == null || !type.toLowerCase(java.util.Locale.ROOT).startsWith("multipart/form-data")) {
            throw new ApiErrors.BadRequest("send multipart/form-data with a 'file' part, or PUT the raw bytes to /files/{name}");
        }
        List<UploadedFile> parts;
        try {
            parts = ctx.uploadedFiles("file");
        } catch (RuntimeException e) {
            if (String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT).contains("exceed")) {
                throw new WorkspaceException(WorkspaceException.Reason.TOO_LARGE,
                        "the upload is larger than the " + Sizes.human(settings.maxUploadBytes()) + " limit", e);
            }
            throw new ApiErrors.BadRequest("malformed multipart body: " + e.getMessage());
        }
        if (parts.isEmpty()) {
            throw new ApiErrors.BadRequest("no part named 'file' in the upload");
        }
        List<FileEntry> stored = new ArrayList<>();
        for (UploadedFile part : parts) {
            String name = checked(part.filename());
            try (InputStream in = part.content()) {
                stored.add(describe(session, workspaceOf(session).write(name, in, settings.maxUploadBytes())));
            }
        }
        RestApi.json(ctx, 201, WireCodec.encode(new UploadedFiles(stored)));
    }

    void download(Context ctx) {
        Session session = RestApi.authorised(sessions, clients, ctx);
        String name = name(ctx);
        Workspace.OpenFile open = workspaceOf(session).open(name);
        WorkspaceFile f = open.file();
        ctx.header("Content-Disposition", contentDisposition(f.name()));
        // even if a browser were talked into rendering it, the file runs in an opaque, script-less origin
        ctx.header("Content-Security-Policy", ContentSecurityPolicy.DOWNLOAD.toString());
        ctx.header("X-Content-Type-Options", "nosniff");
        // Sent as stored: most user files are compressed already, and a declared length gives progress bars
        ctx.disableCompression();
        ctx.header("Content-Length", String.valueOf(f.size()));
        ctx.contentType(f.mime());
        ctx.result(Channels.newInputStream(open.channel()));
    }

    void delete(Context ctx) {
        Session session = RestApi.authorised(sessions, clients, ctx);
        String name = name(ctx);
        if (!workspaceOf(session).delete(name)) {
            throw new WorkspaceException(WorkspaceException.Reason.NOT_FOUND, "no file '" + name + "' in the workspace");
        }
        ctx.status(204);
    }

    private static Workspace workspaceOf(Session session) {
        Workspace workspace = session.workspace();
        if (workspace == null) {
            throw new WorkspaceException(WorkspaceException.Reason.UNAVAILABLE, "the session has no workspace yet");
        }
        return workspace;
    }

    private static String name(Context ctx) {
        return checked(ctx.pathParam("name"));
    }

    private static String checked(String name) {
        try {
            return WorkspaceNames.check(name);
        } catch (IllegalArgumentException e) {
            throw new ApiErrors.BadRequest("file name refused: " + e.getMessage());
        }
    }

    /** A body that says it is too large is refused before a byte of it is read. */
    private void refuseDeclaredOversize(Context ctx, long limit) {
        long declared = ctx.req().getContentLengthLong();
        if (declared > limit) {
            ctx.header("Connection", "close");
            throw new WorkspaceException(WorkspaceException.Reason.TOO_LARGE,
                    "the upload is " + Sizes.human(declared) + "; the limit is " + Sizes.human(settings.maxUploadBytes()) + " per file");
        }
    }

    private static FileEntry describe(Session session, WorkspaceFile f) {
        return new FileEntry(f.name(), f.size(), f.modifiedMs(), f.mime(), DownloadLinks.path(session.id(), f.name()));
    }

    /** RFC 6266: an ASCII fallback with anything odd replaced, and the exact name in RFC 5987 form. */
    static String contentDisposition(String name) {
        StringBuilder ascii = new StringBuilder();
        for (char c : name.toCharArray()) {
            ascii.append(c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != ';' ? c : '_');
        }
        String encoded = URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
        return "attachment; filename=\"" + ascii + "\"; filename*=UTF-8''" + encoded;
    }
}
