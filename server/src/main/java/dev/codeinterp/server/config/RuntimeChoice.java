package dev.codeinterp.server.config;

import java.util.Collection;
import java.util.Locale;

/**
 * The runtime sessions get, and why: the one home of the rule. An explicit {@code CODEINTERP_RUNTIME}
 * is taken as it is; unset, gVisor's {@code runsc} where the engine has it registered (code from anyone
 * runs behind gVisor, and idle sessions keep their variables), else {@code runc}, said as a fallback.
 * {@code why} is in words for {@code /healthz}, the log and the UI.
 */
public record RuntimeChoice(String runtime, ChosenBy chosenBy, String why) {
    public static final String GVISOR = "runsc";
    public static final String RUNC = "runc";

    /** How the runtime was arrived at; on the wire in lower case. */
    public enum ChosenBy {
        /** Unset, and the engine has runsc. */
        DEFAULT,
        /** {@code CODEINTERP_RUNTIME} names it. */
        SETTING,
        /** Unset, and the engine has no runsc (or did not answer): runc, without gVisor's boundary. */
        FALLBACK;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public RuntimeChoice {
        if (!Settings.RUNTIMES.contains(runtime)) {
            throw new IllegalArgumentException("runtime must be one of " + Settings.RUNTIMES + ", got " + runtime);
        }
    }

    /**
     * @param setting        {@code CODEINTERP_RUNTIME}, null when unset
     * @param engineRuntimes the runtimes the engine lists, null when no engine answered
     */
    public static RuntimeChoice of(String setting, Collection<String> engineRuntimes) {
        if (setting != null) {
            if (engineRuntimes != null && !engineRuntimes.contains(setting)) {
                return new RuntimeChoice(setting, ChosenBy.SETTING, "CODEINTERP_RUNTIME=" + setting + ", but the Docker engine has no "
                        + setting + " runtime registered: server mode is off until it is (scripts/setup-host.sh registers runsc) "
                        + "or the setting is removed");
            }
            return new RuntimeChoice(setting, ChosenBy.SETTING, "CODEINTERP_RUNTIME=" + setting);
        }
        if (engineRuntimes == null) {
            return new RuntimeChoice(RUNC, ChosenBy.FALLBACK, "no Docker engine answered at start, so whether gVisor (runsc) "
                    + "is installed is unknown: sessions would run under runc, without gVisor's boundary");
        }
        if (engineRuntimes.contains(GVISOR)) {
            return new RuntimeChoice(GVISOR, ChosenBy.DEFAULT, "gVisor (runsc) is registered with the Docker engine: code runs "
                    + "behind gVisor's boundary (CODEINTERP_RUNTIME=runc trades it for speed on trusted setups)");
        }
        return new RuntimeChoice(RUNC, ChosenBy.FALLBACK, "gVisor (runsc) is not registered with the Docker engine "
                + "(scripts/setup-host.sh installs and registers it): code runs under runc, without gVisor's boundary");
    }

    public boolean fallback() {
        return chosenBy == ChosenBy.FALLBACK;
    }
}
