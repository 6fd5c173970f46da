package dev.codeinterp.server.sandbox;

/** The shell commands contract under gVisor, runsc. */
class RunscShellCommandsTest extends ShellCommandsContract {
    @Override
    String runtime() {
        return "runsc";
    }

    @Override
    String platform() {
        return "ptrace";
    }
}
