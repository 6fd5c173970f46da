package dev.codeinterp.server.api;

import dev.codeinterp.server.session.Tokens;
import dev.codeinterp.server.testing.TestApp;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The keys the tests of a key's own sessions share: ann's (a quota of 20), bob's and shop's
 * publishable embed key, on a real server (runc, no warm pool) that knows them.
 */
final class ThreeKeys {
    static final String ANN = "ci_ann-" + Tokens.newToken();
    static final String BOB = "ci_bob-" + Tokens.newToken();
    static final String EMBED = "ci_pk_shop-" + Tokens.newToken();

    private ThreeKeys() {
    }

    static TestApp startServer() throws IOException {
        Path keys = Files.createTempFile("keys", "");
        Files.writeString(keys, "ann " + Tokens.hash(ANN) + " 20\nbob " + Tokens.hash(BOB) + "\n"
                + "shop " + Tokens.hash(EMBED) + " embed=https://shop.example\n");
        return TestApp.start("runc", Map.of("API_KEYS", keys.toString(), "EMBED_ORIGINS", "https://shop.example", "POOL_SIZE", "0"));
    }
}
