package dev.codeinterp.model;

/** How an assistant turn ended ({@code assistant_done}'s {@code status}). */
public enum AssistantStatus implements WireName {
    /** The model answered ({@code finish_reason: stop}). */
    ANSWERED("answered"),
    /** The model hit the token limit mid-answer ({@code finish_reason: length}). */
    LENGTH("length"),
    /** The model still wanted tools after the last allowed round. */
    ROUNDS("rounds"),
    /** The person stopped it. */
    STOPPED("stopped"),
    /** The endpoint failed (error answer, 429, timeout, broken stream); {@code message} says how. */
    ERROR("error");

    private final String wire;

    AssistantStatus(String wire) {
        this.wire = wire;
    }

    @Override
    public String wire() {
        return wire;
    }

    public static AssistantStatus fromWire(String name) {
        return WireName.find(values(), name);
    }
}
