package dev.codeinterp.server.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A minimal HTTP/1.1 client written on the caller's thread (no selector or executor hand-offs):
 * the floor against which the JDK HttpClient and the server's own costs are measured, and two
 * ways clients get it wrong, to show what each costs on loopback.
 */
final class RawHttp implements AutoCloseable {
    private final String host;
    private final int port;
    private final boolean noDelay;
    private final boolean splitWrites;
    private final boolean keepAlive;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    private RawHttp(String baseUrl, boolean noDelay, boolean splitWrites, boolean keepAlive) {
        URI uri = URI.create(baseUrl);
        this.host = uri.getHost();
        this.port = uri.getPort();
        this.noDelay = noDelay;
        this.splitWrites = splitWrites;
        this.keepAlive = keepAlive;
    }

    /** One kept-alive connection, TCP_NODELAY, each request in one write: what a good client does. */
    static RawHttp keptAlive(String baseUrl) {
        return new RawHttp(baseUrl, true, false, true);
    }

    /** Head and body in two writes with Nagle on: the second write waits for the server's delayed ACK. */
    static RawHttp nagleSplit(String baseUrl) {
        return new RawHttp(baseUrl, false, true, true);
    }

    /** A new connection per request (`Connection: close`), as urllib, curl-per-call or a client without a pool does. */
    static RawHttp connectionPerRequest(String baseUrl) {
        return new RawHttp(baseUrl, true, false, false);
    }

    record Reply(int status, String body) {
    }

    Reply exchange(String method, String path, String token, String body) throws IOException {
        if (socket == null || socket.isClosed()) {
            connect();
        }
        byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n")
                .append("Host: ").append(host).append(':').append(port).append("\r\n");
        if (token != null) {
            head.append("Authorization: Bearer ").append(token).append("\r\n");
        }
        if (!keepAlive) {
            head.append("Connection: close\r\n");
        }
        if (body != null) {
            head.append("Content-Type: application/json\r\nContent-Length: ").append(content.length).append("\r\n");
        }
        byte[] headBytes = head.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII);
        if (splitWrites) {
            out.write(headBytes);
            out.flush();
            out.write(content);
        } else {
            byte[] all = new byte[headBytes.length + content.length];
            System.arraycopy(headBytes, 0, all, 0, headBytes.length);
            System.arraycopy(content, 0, all, headBytes.length, content.length);
            out.write(all);
        }
        out.flush();
        return read();
    }

    private void connect() throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(noDelay);
        socket.connect(new InetSocketAddress(host, port), 5000);
        socket.setSoTimeout(120_000);
        in = new BufferedInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    private Reply read() throws IOException {
        String statusLine = line();
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        long length = -1;
        boolean chunked = false;
        boolean close = false;
        for (String h = line(); !h.isEmpty(); h = line()) {
            String lower = h.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Long.parseLong(h.substring(15).trim());
            } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
            } else if (lower.startsWith("connection:") && lower.contains("close")) {
                close = true;
            }
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (chunked) {
            for (int size = Integer.parseInt(line().split(";")[0].trim(), 16); size > 0; size = Integer.parseInt(line().split(";")[0].trim(), 16)) {
                body.write(in.readNBytes(size));
                line();
            }
            line();
        } else if (length >= 0) {
            body.write(in.readNBytes((int) length));
        }
        if (close || !keepAlive) {
            close();
        }
        return new Reply(status, body.toString(StandardCharsets.UTF_8));
    }

    private String line() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("the server closed the connection");
            }
            if (c != '\r') {
                sb.append((char) c);
            }
        }
        return sb.toString();
    }

    @Override
    public void close() throws IOException {
        if (socket != null) {
            socket.close();
        }
    }
}
