package dev.codeinterp.server.api;

/** The REST contract under gVisor (runsc). */
class RunscRestApiTest extends RestApiContract {
    @Override
    String runtime() {
        return "runsc";
    }
}
