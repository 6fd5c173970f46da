package dev.codeinterp.server.session;

/**
 * Who asks for a session, for quotas: an API key's name ({@code key:<name>}) or, when the server
 * runs without keys, the remote address ({@code addr:<ip>}). {@code maxSessions} is its quota.
 */
public record Client(String id, int maxSessions) {

    public static Client ofKey(String name, int maxSessions) {
        return new Client("key:" + name, maxSessions);
    }

    public static Client ofAddress(String address, int maxSessions) {
        return new Client("addr:" + address, maxSessions);
    }

    /** Known by its address only (the server runs without API keys). */
    public boolean anonymous() {
        return id.startsWith("addr:");
    }
}
