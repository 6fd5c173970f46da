package dev.codeinterp.server.sandbox;

/** The hardening contract under gVisor, runsc. */
class RunscHardeningTest extends HardeningContract {
    @Override
    String runtime() {
        return "runsc";
    }
}
