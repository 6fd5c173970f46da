package dev.codeinterp.server.mcp;

import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonObject;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The SDK's transport (2.1.0) answers a refused HTTP request by serialising its exception object,
 * stack trace and all. This catches such error bodies and sends a plain JSON-RPC error instead:
 * the same code and message, nothing about the server's insides.
 */
final class JsonRpcErrorBodies extends HttpServletResponseWrapper {
    private StringWriter held;

    JsonRpcErrorBodies(HttpServletResponse response) {
        super(response);
    }

    @Override
    public PrintWriter getWriter() throws IOException {
        if (getStatus() >= 400 && !isCommitted()) {
            if (held == null) {
                held = new StringWriter();
            }
            return new PrintWriter(held);
        }
        return super.getWriter();
    }

    /** Writes the held error body, rewritten; a no-op when nothing was held. */
    void finish() throws IOException {
        if (held == null) {
            return;
        }
        int code = -32603;
        String message = "the request was refused";
        try {
            JsonObject body = JsonObject.parse(held.toString());
            JsonObject error = body.has("jsonRpcError") ? body.object("jsonRpcError") : body.optObject("error");
            if (error != null) {
                code = (int) error.optInteger("code", code);
                message = error.optString("message", message);
            }
        } catch (RuntimeException e) {
            // not JSON: keep the generic message
        }
        Map<String, Object> rpcError = new LinkedHashMap<>();
        rpcError.put("code", code);
        rpcError.put("message", message);
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("jsonrpc", "2.0");
        envelope.put("id", null);
        envelope.put("error", rpcError);
        HttpServletResponse response = (HttpServletResponse) getResponse();
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(Json.write(envelope));
    }
}
