package dev.codeinterp.server.api;

import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.model.rest.SessionList;
import dev.codeinterp.model.rest.SessionState;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;

import static dev.codeinterp.server.api.ThreeKeys.ANN;
import static dev.codeinterp.server.api.ThreeKeys.BOB;
import static dev.codeinterp.server.api.ThreeKeys.EMBED;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Titles and a key's listing against the real server (runc, real store): a title is set by the
 * session's token or its owning key, kept bounded and as text, and a key lists only its own sessions.
 */
class SessionTitlesAndListingTest extends ThreeKeys {
    private static TestApp.SessionRef create(String key) {
        TestApp.Response r = app.post("/api/v1/sessions", null, key);
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        return new TestApp.SessionRef(r.json().string("id"), r.json().string("token"));
    }

    static TestApp.Response patch(String id, String body, String bearer) {
        HttpRequest.Builder b = app.request("/api/v1/sessions/" + id, bearer).header("Content-Type", "application/json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString(body));
        return app.send(b.build());
    }

    @Test
    void a_new_session_has_no_title_until_one_is_set_and_then_keeps_it() {
        TestApp.SessionRef s = create(ANN);
        try {
            TestApp.Response before = app.get("/api/v1/sessions/" + s.id(), s.token());
            assertThat(before.body()).contains("\"title\":null");
            TestApp.Response set = patch(s.id(), "{\"title\":\"Sales by region\"}", s.token());
            assertThat(set.status()).as(set.body()).isEqualTo(200);
            SessionState answered = WireCodec.decodeSessionState(set.body());
            assertThat(answered.title()).isEqualTo("Sales by region");
            assertThat(answered.id()).isEqualTo(s.id());
            assertThat(WireCodec.decodeSessionState(app.get("/api/v1/sessions/" + s.id(), s.token()).body()).title())
                    .isEqualTo("Sales by region");
            // the owning key opens it as its token does
            TestApp.Response byKey = patch(s.id(), "{\"title\":\"  \"}", ANN);
            assertThat(byKey.status()).as(byKey.body()).isEqualTo(200);
            assertThat(WireCodec.decodeSessionState(byKey.body()).title()).isNull();
            assertThat(WireCodec.decodeSessionState(app.get("/api/v1/sessions/" + s.id(), ANN).body()).title()).isNull();
        } finally {
            app.delete("/api/v1/sessions/" + s.id(), s.token());
        }
    }

    @Test
    void a_hostile_title_is_stored_bounded_on_one_line_and_as_text() {
        TestApp.SessionRef s = create(ANN);
        try {
            String huge = "<b>é</b>\u0000\n\u001B[31m\u202E" + "\uD83D\uDE00".repeat(5_000);
            TestApp.Response r = patch(s.id(), WireCodec.encode(new dev.codeinterp.model.rest.SessionPatch(huge)), s.token());
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            String kept = WireCodec.decodeSessionState(app.get("/api/v1/sessions/" + s.id(), s.token()).body()).title();
            assertThat(kept.codePointCount(0, kept.length())).isEqualTo(200);
            assertThat(kept).startsWith("<b>é</b> [31m \uD83D\uDE00").endsWith("\uD83D\uDE00").doesNotContain("\u0000", "\n", "\u001B", "\u202E");
        } finally {
            app.delete("/api/v1/sessions/" + s.id(), s.token());
        }
    }

    @Test
    void a_body_without_a_string_title_is_refused_with_a_json_error() {
        TestApp.SessionRef s = create(ANN);
        try {
            for (String body : List.of("", "nonsense", "{\"title\":", "[]", "{}", "{\"title\":null}", "{\"title\":42}",
                    "{\"title\":{\"a\":1}}", "{\"name\":\"x\"}")) {
                TestApp.Response r = patch(s.id(), body, s.token());
                assertThat(r.status()).as(body + " → " + r.body()).isEqualTo(400);
                assertThat(WireCodec.decodeApiError(r.body()).error()).as(body).startsWith("malformed request");
            }
            assertThat(WireCodec.decodeApiError(patch(s.id(), "{\"title\":42}", s.token()).body()).error()).contains("'title' must be a string");
            assertThat(app.get("/api/v1/sessions/" + s.id(), s.token()).body()).contains("\"title\":null");
        } finally {
            app.delete("/api/v1/sessions/" + s.id(), s.token());
        }
    }

    @Test
    void another_keys_session_an_unknown_id_and_a_closed_session_are_not_found() {
        TestApp.SessionRef anns = create(ANN);
        TestApp.SessionRef bobs = create(BOB);
        try {
            for (String bearer : new String[] {BOB, bobs.token(), EMBED, "", "x".repeat(600)}) {
                TestApp.Response r = patch(anns.id(), "{\"title\":\"mine now\"}", bearer);
                assertThat(r.status()).as(r.body()).isEqualTo(404);
                assertThat(app.get("/api/v1/sessions/" + anns.id(), bearer).status()).isEqualTo(404);
            }
            assertThat(patch("n0.nosuchsession", "{\"title\":\"x\"}", ANN).status()).isEqualTo(404);
            assertThat(patch(anns.id(), "{\"title\":\"x\"}", null).status()).isEqualTo(404);
            assertThat(app.get("/api/v1/sessions/" + anns.id(), anns.token()).body()).contains("\"title\":null");
        } finally {
            app.delete("/api/v1/sessions/" + anns.id(), anns.token());
            app.delete("/api/v1/sessions/" + bobs.id(), bobs.token());
        }
        assertThat(patch(anns.id(), "{\"title\":\"x\"}", anns.token()).status()).isEqualTo(404);
        assertThat(app.get("/api/v1/sessions/" + anns.id(), ANN).status()).isEqualTo(404);
    }

    @Test
    void a_key_lists_its_own_open_sessions_newest_first_a_page_at_a_time() throws Exception {
        List<TestApp.SessionRef> anns = new ArrayList<>();
        TestApp.SessionRef bobs = create(BOB);
        try {
            for (int i = 0; i < 5; i++) {
                anns.add(create(ANN));
                patch(anns.get(i).id(), "{\"title\":\"n" + i + "\"}", ANN);
                Thread.sleep(5); // distinct creation times
            }
            app.delete("/api/v1/sessions/" + anns.get(2).id(), anns.get(2).token());
            List<String> seen = new ArrayList<>();
            String after = null;
            int pages = 0;
            do {
                TestApp.Response r = app.get("/api/v1/sessions?limit=2" + (after == null ? "" : "&after=" + after), ANN);
                assertThat(r.status()).as(r.body()).isEqualTo(200);
                SessionList page = WireCodec.decodeSessionList(r.body());
                assertThat(page.sessions()).hasSizeLessThanOrEqualTo(2);
                page.sessions().forEach(s -> {
                    assertThat(s.state()).isEqualTo(SessionState.RUNNING);
                    seen.add(s.title());
                });
                assertThat(r.body()).doesNotContain("token");
                after = page.next();
                pages++;
            } while (after != null && pages < 10);
            assertThat(seen).containsExactly("n4", "n3", "n1", "n0");
            SessionList bobsList = WireCodec.decodeSessionList(app.get("/api/v1/sessions", BOB).body());
            assertThat(bobsList.sessions()).extracting(SessionState::id).containsExactly(bobs.id());
            assertThat(bobsList.next()).isNull();
        } finally {
            anns.forEach(s -> app.delete("/api/v1/sessions/" + s.id(), s.token()));
            app.delete("/api/v1/sessions/" + bobs.id(), bobs.token());
        }
    }

    @Test
    void a_listing_without_a_key_or_with_bad_paging_is_refused_saying_why() {
        TestApp.Response none = app.get("/api/v1/sessions", null);
        assertThat(none.status()).isEqualTo(401);
        assertThat(none.headers()).containsKey("www-authenticate");
        assertThat(app.get("/api/v1/sessions", "not-a-key").status()).isEqualTo(401);
        assertThat(app.get("/api/v1/sessions", EMBED).status()).isEqualTo(401);
        for (String query : List.of("limit=0", "limit=201", "limit=-1", "limit=abc", "limit=1e3", "limit=99999999999999999999",
                "after=garbage", "after=12", "after=1.a%2Fb", "after=" + "9".repeat(30) + ".x")) {
            TestApp.Response r = app.get("/api/v1/sessions?" + query, ANN);
            assertThat(r.status()).as(query + " → " + r.body()).isEqualTo(400);
            assertThat(JsonObject.parse(r.body()).string("error")).isNotBlank();
        }
        assertThat(app.get("/api/v1/sessions?limit=200", ANN).status()).isEqualTo(200);
    }
}
