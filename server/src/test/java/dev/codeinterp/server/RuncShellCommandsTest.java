package dev.codeinterp.server;

/** The shell commands contract under runc. */
class RuncShellCommandsTest extends ShellCommandsContract {
    @Override
    String runtime() {
        return "runc";
    }
}
