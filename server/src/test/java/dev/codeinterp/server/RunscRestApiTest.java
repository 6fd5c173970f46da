package dev.codeinterp.server;

/** The REST contract under gVisor (runsc). */
class RunscRestApiTest extends RestApiContract {
    @Override
    String runtime() {
        return "runsc";
    }
}
