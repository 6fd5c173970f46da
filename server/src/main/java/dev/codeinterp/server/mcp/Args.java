package dev.codeinterp.server.mcp;

import java.util.List;
import java.util.Map;

/**
 * A tool call's arguments, read with their types checked. The SDK validates them against the input
 * schema first; this is the second line, so a handler never acts on a value of the wrong shape.
 */
record Args(Map<String, Object> values) {

    static Args of(Map<String, Object> arguments) {
        return new Args(arguments == null ? Map.of() : arguments);
    }

    String requiredString(String name) {
        String value = optionalString(name);
        if (value == null) {
            throw new ToolError("'" + name + "' is required");
        }
        return value;
    }

    String optionalString(String name) {
        Object value = values.get(name);
        if (value == null) {
            return null;
        }
        if (!(value instanceof String s)) {
            throw new ToolError("'" + name + "' must be a string");
        }
        return s;
    }

    Double optionalNumber(String name) {
        Object value = values.get(name);
        if (value == null) {
            return null;
        }
        if (!(value instanceof Number n)) {
            throw new ToolError("'" + name + "' must be a number of seconds");
        }
        return n.doubleValue();
    }

    List<String> optionalStrings(String name) {
        Object value = values.get(name);
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> list) || !list.stream().allMatch(String.class::isInstance)) {
            throw new ToolError("'" + name + "' must be a list of strings");
        }
        return list.stream().map(String.class::cast).toList();
    }
}
