package dev.codeinterp.server;

class RunscFilesTest extends FilesContract {
    @Override
    String runtime() {
        return "runsc";
    }
}
