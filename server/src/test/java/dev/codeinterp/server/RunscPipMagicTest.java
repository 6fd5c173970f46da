package dev.codeinterp.server;

class RunscPipMagicTest extends PipMagicContract {
    @Override
    String runtime() {
        return "runsc";
    }
}
