package dev.codeinterp.server.mcp;

import dev.codeinterp.model.ExecuteResponse;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * run_code's {@code packages}: the sandbox is offline and installs nothing, so the modules are
 * looked up in the interpreter first, and a missing one is reported before the code runs rather
 * than as an ImportError halfway through it.
 */
record PackageCheck(List<String> modules) {
    private static final Pattern MODULE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*");
    private static final Pattern QUOTED = Pattern.compile("'([^']*)'");

    static PackageCheck of(List<String> names) {
        for (String name : names) {
            if (!MODULE.matcher(name).matches()) {
                throw new ToolError("'" + name + "' is not a module name: give the name you import (e.g. sklearn, not scikit-learn)");
            }
        }
        return new PackageCheck(List.copyOf(names));
    }

    boolean isEmpty() {
        return modules.isEmpty();
    }

    /** A cell whose value is the list of modules that cannot be found; it binds no name in the session. */
    String probe() {
        StringBuilder tuple = new StringBuilder();
        for (String m : modules) {
            tuple.append('\'').append(m).append("',");
        }
        return "[m for m in (" + tuple + ") if __import__('importlib.util').util.find_spec(m.split('.')[0]) is None]";
    }

    List<String> missingFrom(ExecuteResponse probed) {
        if (!probed.success()) {
            throw new ToolError("the packages could not be checked: "
                    + (probed.error() != null ? probed.error().name() + ": " + probed.error().value() : probed.status().wire()));
        }
        List<String> missing = new ArrayList<>();
        for (Map<String, Object> bundle : probed.results()) {
            if (bundle.get("text/plain") instanceof String text) {
                Matcher m = QUOTED.matcher(text);
                while (m.find()) {
                    missing.add(m.group(1));
                }
            }
        }
        return missing;
    }

    String refusal(List<String> missing) {
        return "not installed in the sandbox: " + String.join(", ", missing)
                + ". The sandbox has no network and cannot install packages; use what is installed (e.g. numpy, pandas, matplotlib, scipy).";
    }
}
