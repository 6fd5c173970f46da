package dev.codeinterp.server.sandbox;

/** The shell commands contract under runc. */
class RuncShellCommandsTest extends ShellCommandsContract {
    @Override
    String runtime() {
        return "runc";
    }
}
