package dev.codeinterp.model.assistant;

/** The model endpoint failed; the message is fit to show the person (it never holds the API key). */
public final class AssistantException extends RuntimeException {
    public AssistantException(String message) {
        super(message);
    }
}
