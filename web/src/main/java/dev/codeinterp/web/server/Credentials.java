package dev.codeinterp.web.server;

import dev.codeinterp.web.bindings.Browser;

/**
 * Where a page keeps the API key it opens server sessions with. The app keeps the key its user
 * typed in this browser's storage; the embed widget holds the publishable key its host page gave
 * it in memory only (it must not become the app's key) and names the page it sits on.
 */
public interface Credentials {
    /** The key to send, or null. */
    String key();

    void keep(String key);

    void forget();

    /** The origin of the page the widget sits on, for a publishable embed key; null in the app. */
    String embedOrigin();

    /** The app's: the key its user typed, kept in this browser. */
    static Credentials inThisBrowser() {
        String storageKey = "codeinterp.api-key";
        return new Credentials() {
            @Override
            public String key() {
                return Browser.storageGet(storageKey);
            }

            @Override
            public void keep(String key) {
                Browser.storageSet(storageKey, key);
            }

            @Override
            public void forget() {
                Browser.storageRemove(storageKey);
            }

            @Override
            public String embedOrigin() {
                return null;
            }
        };
    }

    /** The embed widget's on a page of {@code pageOrigin}: the host's key, for this page's life only. */
    static Credentials forWidgetOn(String pageOrigin) {
        return new Credentials() {
            private String key;

            @Override
            public String key() {
                return key;
            }

            @Override
            public void keep(String key) {
                this.key = key;
            }

            @Override
            public void forget() {
                key = null;
            }

            @Override
            public String embedOrigin() {
                return pageOrigin;
            }
        };
    }
}
