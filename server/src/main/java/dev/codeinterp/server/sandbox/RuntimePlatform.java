package dev.codeinterp.server.sandbox;

import java.util.List;
import java.util.Map;

/**
 * gVisor's platform as the engine registers runsc, for {@code /healthz}: how runsc traps the
 * sandbox's system calls decides what every cell costs (systrap ~23 µs a call here, ptrace ~52 µs),
 * so it is shown. It is the {@code --platform} of the runtime's {@code runtimeArgs} in Docker's
 * {@code Runtimes}; null for a runtime that names none (runc, or a runsc left on its default).
 */
final class RuntimePlatform {
    private static final String FLAG = "--platform";

    private RuntimePlatform() {
    }

    static String of(String runtime, Map<?, ?> runtimes) {
        if (runtimes == null || !(runtimes.get(runtime) instanceof Map<?, ?> entry)
                || !(entry.get("runtimeArgs") instanceof List<?> args)) {
            return null;
        }
        String platform = null;
        for (int i = 0; i < args.size(); i++) {
            String arg = String.valueOf(args.get(i));
            if (arg.startsWith(FLAG + "=")) {
                platform = arg.substring(FLAG.length() + 1);
            } else if (arg.equals(FLAG) && i + 1 < args.size()) {
                platform = String.valueOf(args.get(++i));
            }
        }
        return platform == null || platform.isBlank() ? null : platform; // the last one given is the one runsc takes
    }
}
