package dev.codeinterp.server;

/** The languages contract under runsc. */
class RunscLanguagesTest extends LanguagesContract {
    @Override
    String runtime() {
        return "runsc";
    }
}
