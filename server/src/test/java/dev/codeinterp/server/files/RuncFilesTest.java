package dev.codeinterp.server.files;

class RuncFilesTest extends FilesContract {
    @Override
    String runtime() {
        return "runc";
    }
}
