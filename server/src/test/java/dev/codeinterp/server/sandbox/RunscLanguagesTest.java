package dev.codeinterp.server.sandbox;

/** The languages contract under runsc. */
class RunscLanguagesTest extends LanguagesContract {
    @Override
    String runtime() {
        return "runsc";
    }
}
