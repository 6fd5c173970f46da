package dev.codeinterp.server.sandbox;

/** Why a sandbox's runner went away, from inspecting the dead container. */
public record SandboxExit(Integer exitCode, boolean oomKilled, String lastOutput) {

    public String describe() {
        if (oomKilled) {
            return "the interpreter ran out of memory and was restarted";
        }
        if (exitCode != null && exitCode == 137) {
            return "the interpreter was killed (SIGKILL, exit code 137) and was restarted";
        }
        return "the interpreter exited" + (exitCode == null ? "" : " with code " + exitCode) + " and was restarted";
    }
}
