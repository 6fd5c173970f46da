package dev.codeinterp.model.rules;

import dev.codeinterp.model.json.JsonObject;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The shared tables of cases (test resources under {@code rules/}) that every copy of a rule must answer alike. */
final class SharedRuleCases {
    private SharedRuleCases() {
    }

    static List<JsonObject> table(String file, String key) {
        try (InputStream in = SharedRuleCases.class.getResourceAsStream("/rules/" + file)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource rules/" + file);
            }
            return JsonObject.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8)).objectList(key);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
