package dev.codeinterp.web.local;

import dev.codeinterp.web.bindings.FrameHost;
import org.teavm.jso.browser.Window;

/**
 * Starts local mode's runtime frame before the person chooses local mode, so that choosing it
 * waits only for what is left of Python's start (issue 27: a return visit's click on Local took
 * 0.8 s from the click, of which ~0.3 s went to the frame's page and its worker's modules, none of
 * which an opaque origin may cache, before Python could even begin).
 *
 * <p>Only in a browser that keeps a local-mode snapshot (someone here has used local mode), in
 * two steps, so that a page whose visitor never chooses local mode pays little:
 * <ol>
 *   <li><b>prepared</b>, once the page is idle: the hidden frame loads its page, its scripts and
 *   its worker's modules, and the app reads the files and the snapshot it will hand over; Python
 *   does not start (the app holds its answer to {@code fetchAssets}).</li>
 *   <li><b>booting</b>, when the pointer comes onto the Local button, or it gets focus or is
 *   pressed: the frame is handed its files and Python starts from the snapshot. Unused for
 *   {@link #UNUSED_MS}, it is thrown away (a prepared one takes its place at the next idle).</li>
 * </ol>
 * The click takes the frame, in whatever step it is, for the new conversation. What the frame
 * runs before that is our own code only: no cell is posted to it, and it is the same sandboxed,
 * opaque-origin frame under the same CSP as one started by the click.
 */
public final class LocalWarmUp {
    /** A booted frame nobody chose this long after the last sign of interest is thrown away. */
    static final int UNUSED_MS = 60000;

    /** This browser keeps a snapshot: known once the page was idle. */
    private boolean localUsed;
    private boolean asked;
    private LocalRuntimeFrame spare;
    private int unusedTimer;

    /** Prepares a frame once the page is idle, if local mode was used in this browser. Harmless twice. */
    public void prepareWhenIdle() {
        if (asked) {
            prepare();
            return;
        }
        asked = true;
        FrameHost.whenIdleWithSnapshot(() -> {
            localUsed = true;
            prepare();
        });
    }

    private void prepare() {
        if (localUsed && spare == null) {
            spare = new LocalRuntimeFrame(true, true);
        }
    }

    /** The person is about to choose local mode (pointer on, focus on or press of its button): Python starts. */
    public void leaning() {
        if (!localUsed) {
            return;
        }
        prepare();
        spare.release();
        Window.clearTimeout(unusedTimer);
        unusedTimer = Window.setTimeout(() -> {
            discard();
            prepare();
        }, UNUSED_MS);
    }

    /** Stops warming up (the page is in local mode now): a frame started ahead is removed, until {@link #prepareWhenIdle}. */
    public void stop() {
        discard();
    }

    private void discard() {
        Window.clearTimeout(unusedTimer);
        if (spare != null) {
            spare.remove();
            spare = null;
        }
    }

    /** The frame started ahead, released, for a new conversation; null if there is none. */
    LocalRuntimeFrame take() {
        Window.clearTimeout(unusedTimer);
        LocalRuntimeFrame taken = spare;
        spare = null;
        if (taken != null) {
            taken.release();
        }
        return taken;
    }
}
