package dev.codeinterp.server.sandbox;

/** The hardening contract under the default runtime, runc. */
class RuncHardeningTest extends HardeningContract {
    @Override
    String runtime() {
        return "runc";
    }
}
