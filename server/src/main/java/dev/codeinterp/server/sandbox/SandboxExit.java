package dev.codeinterp.server.sandbox;

/**
 * Why a sandbox's runner went away, from inspecting the dead container. {@link #cause} is the
 * diagnosis the session acts on; {@code exitCode} and {@code lastOutput} are the evidence.
 */
public record SandboxExit(Cause cause, Integer exitCode, String lastOutput) {

    /** What the engine's account of the dead container says happened. */
    public enum Cause {
        /** The engine reports OOMKilled: the cell went past the sandbox's memory limit. */
        OOM_KILLED,
        /**
         * Exit code 137 without OOMKilled: a SIGKILL from outside (an operator's {@code docker kill}),
         * not memory; only the engine's flag says out of memory.
         */
        KILLED,
        /** The runner ended by itself, with {@link #exitCode} when the engine reported one. */
        EXITED,
        /** The container could not be inspected: the engine went away, or the container was removed under us. */
        ENGINE_GONE
    }

    /** The diagnosis of a container the engine described. */
    public static SandboxExit inspected(Integer exitCode, boolean oomKilled, String lastOutput) {
        Cause cause = oomKilled ? Cause.OOM_KILLED
                : exitCode != null && exitCode == 137 ? Cause.KILLED
                : Cause.EXITED;
        return new SandboxExit(cause, exitCode, lastOutput);
    }

    /** The engine could not say anything about the container. */
    public static SandboxExit uninspectable(String lastOutput) {
        return new SandboxExit(Cause.ENGINE_GONE, null, lastOutput);
    }
}
