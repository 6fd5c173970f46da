package dev.codeinterp.server.api;

import dev.codeinterp.server.session.Tokens;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * What the tests of a key's own sessions share: ann's key (a quota of 20), bob's and shop's
 * publishable embed key, and a real server (runc, no warm pool) that knows them, one per test class.
 */
abstract class ThreeKeys {
    static final String ANN = "ci_ann-" + Tokens.newToken();
    static final String BOB = "ci_bob-" + Tokens.newToken();
    static final String EMBED = "ci_pk_shop-" + Tokens.newToken();

    static TestApp app;

    @BeforeAll
    static void startServer() throws IOException {
        Path keys = Files.createTempFile("keys", "");
        Files.writeString(keys, "ann " + Tokens.hash(ANN) + " 20\nbob " + Tokens.hash(BOB) + "\n"
                + "shop " + Tokens.hash(EMBED) + " embed=https://shop.example\n");
        app = TestApp.start("runc", Map.of("API_KEYS", keys.toString(), "EMBED_ORIGINS", "https://shop.example", "POOL_SIZE", "0"));
    }

    @AfterAll
    static void stopServer() {
        app.close();
    }
}
