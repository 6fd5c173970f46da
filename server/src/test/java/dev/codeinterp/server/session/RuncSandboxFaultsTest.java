package dev.codeinterp.server.session;

/** Outside faults to a sandbox under runc. */
class RuncSandboxFaultsTest extends SandboxFaultsContract {
    @Override
    String runtime() {
        return "runc";
    }
}
