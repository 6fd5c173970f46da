package dev.codeinterp.server.session;

/** Outside faults to a sandbox under runsc. */
class RunscSandboxFaultsTest extends SandboxFaultsContract {
    @Override
    String runtime() {
        return "runsc";
    }
}
