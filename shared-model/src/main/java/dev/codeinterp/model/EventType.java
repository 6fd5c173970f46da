package dev.codeinterp.model;

/** The {@code type} discriminator of an {@link Event} on the wire. */
public enum EventType implements WireName {
    QUEUED("queued"),
    STARTED("started"),
    STREAM("stream"),
    DISPLAY_DATA("display_data"),
    EXECUTE_RESULT("execute_result"),
    ERROR("error"),
    TRUNCATED("truncated"),
    ARTIFACT("artifact"),
    RESTARTED("restarted"),
    RESUMED("resumed"),
    FINISHED("finished"),
    PROMPT("prompt"),
    ASSISTANT_TEXT("assistant_text"),
    TOOL_CALL("tool_call"),
    TOOL_RESULT("tool_result"),
    ASSISTANT_DONE("assistant_done"),
    UPDATE_DISPLAY_DATA("update_display_data"),
    CLEAR_OUTPUT("clear_output"),
    INPUT_REQUEST("input_request"),
    INSTALL("install");

    private final String wire;

    EventType(String wire) {
        this.wire = wire;
    }

    @Override
    public String wire() {
        return wire;
    }

    /** The type for a wire name, or null when it is not one. */
    public static EventType fromWire(String name) {
        return WireName.find(values(), name);
    }
}
