package dev.codeinterp.server.sandbox;

import java.io.InputStream;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The attach stream's stdin: docker-java copies from this InputStream into the hijacked
 * connection. A queue of byte chunks, because PipedInputStream breaks when its writer thread ends.
 */
final class StdinFeed extends InputStream {
    private static final byte[] EOF = new byte[0];
    private final BlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();
    private byte[] current;
    private int offset;
    private volatile boolean closed;

    void write(byte[] bytes) {
        if (!closed) {
            chunks.add(bytes);
        }
    }

    @Override
    public int read() throws java.io.IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int off, int len) throws java.io.IOException {
        if (current == null || offset >= current.length) {
            try {
                current = chunks.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("stdin feed interrupted");
            }
            offset = 0;
            if (current == EOF) {
                chunks.add(EOF);
                return -1;
            }
        }
        int n = Math.min(len, current.length - offset);
        System.arraycopy(current, offset, buffer, off, n);
        offset += n;
        return n;
    }

    @Override
    public int available() {
        return current == null ? 0 : current.length - offset;
    }

    @Override
    public void close() {
        closed = true;
        chunks.add(EOF);
    }
}
