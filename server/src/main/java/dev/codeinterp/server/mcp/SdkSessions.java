package dev.codeinterp.server.mcp;

import dev.codeinterp.model.json.Json;
import dev.codeinterp.server.cluster.McpSessionCatalog;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Begins and ends the SDK's own sessions from inside the server. The SDK names a session only when a
 * client initializes one, with a fresh UUID, and offers no other way in: so an MCP session kept in
 * the store is begun again by sending the transport what its client once sent ({@code initialize}
 * with the stored protocol version, capabilities and client info, then {@code notifications/initialized}),
 * as requests made here that never touch the network, and the client's id is then mapped to the new
 * SDK id. The same way, a session that moved to another node is ended here.
 */
final class SdkSessions {
    private final HttpServlet transport;
    private final String path;

    SdkSessions(HttpServlet transport, String path) {
        this.transport = transport;
        this.path = path;
    }

    /** Begins an SDK session for {@code kept}, as its client began it; answers the SDK's id for it. */
    String begin(McpSessionCatalog.Kept kept, Object client) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("protocolVersion", kept.protocolVersion());
        params.put("capabilities", Json.parse(kept.clientCapabilities()));
        params.put("clientInfo", Json.parse(kept.clientInfo()));
        Map<String, Object> initialize = new LinkedHashMap<>();
        initialize.put("jsonrpc", "2.0");
        initialize.put("id", "revive");
        initialize.put("method", "initialize");
        initialize.put("params", params);
        Answer begun = call("POST", null, Json.write(initialize), client);
        String id = begun.headers.get(SessionIdWatch.HEADER.toLowerCase(java.util.Locale.ROOT));
        if (begun.status != 200 || id == null) {
            throw new IllegalStateException("the MCP transport did not begin the session again: " + begun.status + " " + begun.body);
        }
        Answer initialized = call("POST", id, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", client);
        if (initialized.status != 202) {
            throw new IllegalStateException("the MCP transport did not take notifications/initialized: " + initialized.status);
        }
        return id;
    }

    /** Ends the SDK's session {@code id} (its streams close); one already gone is no matter. */
    void end(String id) {
        call("DELETE", id, null, null);
    }

    private record Answer(int status, Map<String, String> headers, String body) {
    }

    private Answer call(String method, String sessionId, String body, Object client) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Accept", "application/json, text/event-stream");
        headers.put("Host", "localhost");
        if (body != null) {
            headers.put("Content-Type", "application/json");
        }
        if (sessionId != null) {
            headers.put(SessionIdWatch.HEADER, sessionId);
        }
        byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        ResponseState state = new ResponseState();
        try {
            transport.service(request(method, headers, bytes, client), response(state));
        } catch (Exception e) {
            throw new IllegalStateException("the MCP transport failed on a " + method + " made here: " + e.getMessage(), e);
        }
        state.writer.flush();
        return new Answer(state.status, state.headers, state.body.toString());
    }

    /** A request with only what the transport reads: method, path, headers, body, the authenticated client. */
    private HttpServletRequest request(String method, Map<String, String> headers, byte[] body, Object client) {
        ServletInputStream stream = BufferedBodyRequest.streamOf(body);
        Map<String, String> byName = new LinkedHashMap<>();
        headers.forEach((k, v) -> byName.put(k.toLowerCase(java.util.Locale.ROOT), v));
        return (HttpServletRequest) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {HttpServletRequest.class},
                (proxy, m, args) -> switch (m.getName()) {
                    case "getMethod" -> method;
                    case "getRequestURI", "getServletPath" -> path;
                    case "getRequestURL" -> new StringBuffer("http://localhost" + path);
                    case "getProtocol" -> "HTTP/1.1";
                    case "getScheme" -> "http";
                    case "getHeader" -> byName.get(((String) args[0]).toLowerCase(java.util.Locale.ROOT));
                    case "getHeaders" -> {
                        String v = byName.get(((String) args[0]).toLowerCase(java.util.Locale.ROOT));
                        yield Collections.enumeration(v == null ? List.<String>of() : List.of(v));
                    }
                    case "getHeaderNames" -> Collections.enumeration(headers.keySet());
                    case "getContentType" -> headers.get("Content-Type");
                    case "getContentLength" -> body.length;
                    case "getContentLengthLong" -> (long) body.length;
                    case "getInputStream" -> stream;
                    case "getAttribute" -> McpGate.CLIENT.equals(args[0]) ? client : null;
                    case "getAttributeNames" -> Collections.emptyEnumeration();
                    case "getDateHeader" -> -1L;
                    case "getIntHeader" -> -1;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    case "toString" -> "MCP request made in the server: " + method;
                    default -> defaultOf(m.getReturnType());
                });
    }

    /** What the transport said: status, headers, body. It never goes async for these calls (no tool runs). */
    private static final class ResponseState {
        int status = 200;
        final Map<String, String> headers = new LinkedHashMap<>();
        final StringWriter body = new StringWriter();
        final PrintWriter writer = new PrintWriter(body);
    }

    private HttpServletResponse response(ResponseState state) {
        return (HttpServletResponse) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {HttpServletResponse.class},
                (proxy, m, args) -> switch (m.getName()) {
                    case "setStatus" -> {
                        state.status = (Integer) args[0];
                        yield null;
                    }
                    case "sendError" -> {
                        state.status = (Integer) args[0];
                        if (args.length > 1 && args[1] != null) {
                            state.writer.write((String) args[1]);
                        }
                        yield null;
                    }
                    case "getStatus" -> state.status;
                    case "setHeader", "addHeader" -> {
                        state.headers.put(((String) args[0]).toLowerCase(java.util.Locale.ROOT), (String) args[1]);
                        yield null;
                    }
                    case "getHeader" -> state.headers.get(((String) args[0]).toLowerCase(java.util.Locale.ROOT));
                    case "getWriter" -> state.writer;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    case "toString" -> "MCP response made in the server";
                    default -> defaultOf(m.getReturnType());
                });
    }

    private static Object defaultOf(Class<?> type) {
        if (type == boolean.class) {
            return false;
        }
        if (type == int.class) {
            return 0;
        }
        if (type == long.class) {
            return 0L;
        }
        return null;
    }
}
