package dev.codeinterp.model.local;

import java.util.List;

/** {@code /local/wheels/index.json}: the pure-Python wheels local mode may load, and the modules each provides. */
public record WheelIndex(List<Wheel> wheels) {

    public record Wheel(String file, long size, List<String> imports) {
    }
}
