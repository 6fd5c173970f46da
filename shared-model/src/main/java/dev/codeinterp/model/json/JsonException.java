package dev.codeinterp.model.json;

/** Malformed JSON, or JSON that does not have the shape a message needs. The message is safe to show. */
public final class JsonException extends RuntimeException {
    public JsonException(String message) {
        super(message);
    }
}
