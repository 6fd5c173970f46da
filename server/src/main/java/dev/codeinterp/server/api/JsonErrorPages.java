package dev.codeinterp.server.api;

import dev.codeinterp.model.wire.WireCodec;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Errors Jetty answers before a route runs (an illegal URI such as an encoded NUL, a bad header):
 * the same {@code {"error": ...}} JSON as every other failure, never an HTML page, with the
 * connection closed so no client reuses a connection whose request was not understood.
 */
final class JsonErrorPages extends ErrorHandler {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        int status = response.getStatus();
        Object message = request.getAttribute(ERROR_MESSAGE);
        String text = message == null ? "request refused" : message.toString();
        byte[] body = WireCodec.encodeError((status == 400 ? "bad request: " : "") + text).getBytes(StandardCharsets.UTF_8);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        response.getHeaders().put("Content-Security-Policy", ContentSecurityPolicy.ERROR.toString());
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        response.getHeaders().put(HttpHeader.CONNECTION, "close");
        response.write(true, ByteBuffer.wrap(body), callback);
        return true;
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, org.eclipse.jetty.http.HttpFields.Mutable fields) {
        fields.put(HttpHeader.CONTENT_TYPE, "application/json");
        fields.put(HttpHeader.CONNECTION, "close");
        return ByteBuffer.wrap(WireCodec.encodeError("bad request: " + (reason == null ? "malformed" : reason))
                .getBytes(StandardCharsets.UTF_8));
    }
}
