package dev.codeinterp.model.assistant;

/**
 * One streamed answer being put together from its SSE {@code data} payloads: text pieces (handed on
 * as they arrive), tool-call fragments joined by index, the finish reason, {@code [DONE]}. The same
 * rules in both places the loop runs (the server's ChatClient, the browser's local assistant).
 */
public final class CompletionStream {
    /** One answer longer than this is an endpoint that does not stop (max_tokens ignored): it is cut off. */
    public static final int MAX_ANSWER_CHARS = 200_000;

    public interface TextListener {
        void onText(String piece);
    }

    private final TextListener onText;
    private final ToolCallAssembler calls = new ToolCallAssembler();
    private final StringBuilder text = new StringBuilder();
    private String finish;
    private boolean done;

    public CompletionStream(TextListener onText) {
        this.onText = onText;
    }

    /** Takes one event's data; returns false at {@code [DONE]}. Throws {@link AssistantException} on a bad chunk. */
    public boolean accept(String data) {
        if (data.strip().equals("[DONE]")) {
            done = true;
            return false;
        }
        OpenAiWire.Chunk chunk = OpenAiWire.chunk(data, calls);
        if (!chunk.text().isEmpty()) {
            if (text.length() + chunk.text().length() > MAX_ANSWER_CHARS) {
                throw new AssistantException("The model endpoint sent more than " + MAX_ANSWER_CHARS
                        + " characters in one answer; the rest was not read.");
            }
            text.append(chunk.text());
            onText.onText(chunk.text());
        }
        if (chunk.finishReason() != null) {
            finish = chunk.finishReason();
        }
        return true;
    }

    /** The answer, once the stream ended; one that ended with neither {@code [DONE]} nor a finish reason was cut off. */
    public Completion complete() {
        if (!done && finish == null) {
            throw new AssistantException("The model endpoint closed the stream before the answer was complete.");
        }
        return new Completion(text.toString(), calls.calls(), FinishReason.fromWire(finish));
    }
}
