package dev.codeinterp.server.files;

class RunscFilesTest extends FilesContract {
    @Override
    String runtime() {
        return "runsc";
    }
}
