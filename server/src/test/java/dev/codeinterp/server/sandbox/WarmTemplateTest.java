package dev.codeinterp.server.sandbox;

import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code TEMPLATE=pydata} on gVisor, sessions start from one checkpoint of a runner that loaded
 * numpy, pandas and matplotlib: their first import is already done, and they share nothing that
 * should differ: random numbers, names, files.
 */
class WarmTemplateTest {

    @Test
    void sessions_from_one_template_have_pandas_loaded_and_draw_different_random_numbers() {
        try (TestApp app = TestApp.start("runsc", Map.of("POOL_SIZE", "2", "TEMPLATE", "pydata"))) {
            TestApp.SessionRef a = app.createSession();
            TestApp.SessionRef b = app.createSession();

            JsonObject first = app.execute(a, "import sys, os\nprint('pandas' in sys.modules, 'pd' in globals(), os.listdir('.'))\n"
                    + "import pandas as pd\npd.DataFrame({'a': [1]}).shape", null);
            assertThat(first.string("stdout")).as("loaded, but no name given and no file left").isEqualTo("True False []\n");
            assertThat(first.objectList("results").get(0).string("text/plain")).isEqualTo("(1, 1)");

            String draw = "import random, numpy\n(random.random(), float(numpy.random.rand()), random.getrandbits(64))";
            String fromA = app.execute(a, draw, null).objectList("results").get(0).string("text/plain");
            String fromB = app.execute(b, draw, null).objectList("results").get(0).string("text/plain");
            assertThat(fromA).isNotEqualTo(fromB);

            JsonObject history = app.get("/api/v1/sessions/" + b.id() + "/events", b.token()).json();
            assertThat(history.objectList("events").stream().filter(e -> e.string("type").equals("started"))
                    .map(e -> e.integer("execution_count")).toList()).as("the template ran no cell of theirs").containsExactly(1L);
            app.delete("/api/v1/sessions/" + a.id(), a.token());
            app.delete("/api/v1/sessions/" + b.id(), b.token());
        }
    }
}
