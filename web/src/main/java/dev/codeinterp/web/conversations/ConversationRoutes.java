package dev.codeinterp.web.conversations;

/** The routes a conversation lives at: {@code /s/<session id>} on the server, {@code /l/<32 hex>} in this browser. */
public final class ConversationRoutes {
    public static final String SERVER = "/s/";
    public static final String LOCAL = "/l/";

    private ConversationRoutes() {
    }

    public static boolean valid(String route) {
        return route.startsWith(SERVER) ? route.substring(3).matches("[A-Za-z0-9_.-]{1,100}")
                : route.startsWith(LOCAL) && route.substring(3).matches("[0-9a-f]{32}");
    }

    /** The route a link's fragment names ("#/s/…"), or null if it names none. */
    public static String of(String hash) {
        String route = hash.startsWith("#") ? hash.substring(1) : hash;
        return valid(route) ? route : null;
    }
}
