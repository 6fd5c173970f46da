package dev.codeinterp.server.packages;

class RunscPipMagicTest extends PipMagicContract {
    @Override
    String runtime() {
        return "runsc";
    }
}
