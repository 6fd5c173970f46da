package dev.codeinterp.server;

class RuncFilesTest extends FilesContract {
    @Override
    String runtime() {
        return "runc";
    }
}
