package dev.codeinterp.server.session;

import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.sandbox.Sandbox;

/** Where a session gets interpreters: a fresh one (with a fresh workspace) or one on its own workspace. */
interface SandboxSource {
    Sandbox fresh();

    Sandbox on(Workspace workspace);
}
