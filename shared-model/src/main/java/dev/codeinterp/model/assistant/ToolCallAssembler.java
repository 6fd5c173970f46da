package dev.codeinterp.model.assistant;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Joins streamed tool-call deltas: the first delta of a call carries its {@code index}, {@code id}
 * and name, later ones only {@code index} and a fragment of the arguments (OpenAI and vLLM split
 * them anywhere, even inside a string escape). Calls come out ordered by index.
 */
public final class ToolCallAssembler {
    private static final class Partial {
        String id;
        String name;
        final StringBuilder arguments = new StringBuilder();
    }

    /** A bound on one call's arguments: a model that streams more than this is broken or hostile. */
    public static final int MAX_ARGUMENT_CHARS = 4 << 20;
    /** More calls than this in one message is a broken or hostile endpoint. */
    public static final int MAX_CALLS = 32;

    private final TreeMap<Long, Partial> calls = new TreeMap<>();

    public void add(long index, String id, String name, String argumentsFragment) {
        if (!calls.containsKey(index) && calls.size() >= MAX_CALLS) {
            throw new AssistantException("The model asked for more than " + MAX_CALLS + " tool calls in one message.");
        }
        Partial p = calls.computeIfAbsent(index, i -> new Partial());
        if (id != null && !id.isEmpty()) {
            p.id = id;
        }
        if (name != null && !name.isEmpty()) {
            p.name = p.name == null ? name : p.name; // a repeated name is not appended
        }
        if (argumentsFragment != null) {
            if (p.arguments.length() + argumentsFragment.length() > MAX_ARGUMENT_CHARS) {
                throw new AssistantException("The model sent tool-call arguments longer than " + MAX_ARGUMENT_CHARS + " characters.");
            }
            p.arguments.append(argumentsFragment);
        }
    }

    public boolean isEmpty() {
        return calls.isEmpty();
    }

    public List<ToolCall> calls() {
        List<ToolCall> out = new ArrayList<>();
        calls.forEach((index, p) -> out.add(new ToolCall(p.id == null || p.id.isEmpty() ? "call_" + index : p.id,
                p.name == null ? "" : p.name, p.arguments.length() == 0 ? "{}" : p.arguments.toString())));
        return out;
    }
}
