package dev.codeinterp.server.sandbox;

import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shell commands people type first, in bash cells and from Python ({@code !cmd},
 * {@code x = !cmd}, {@code %ls}, {@code %%bash}), against the real engine; once per runtime. Any
 * error text fails the test: a runtime that breaks a syscall coreutils relies on shows here first
 * (issue 22: under bookworm's 2022 runsc every {@code ls} and {@code stat} answered "Invalid argument").
 */
abstract class ShellCommandsContract {
    /** What none of these commands prints when it works. */
    private static final List<String> ERROR_TEXTS = List.of("Invalid argument", "cannot", "No such file",
            "Permission denied", "not found", "not permitted", "Bad file descriptor", "No module named", "Traceback",
            "Error", "error");
    /**
     * gVisor before release-20241021 fails {@code lgetxattr} on a symlink with EBADF (gVisor issue
     * 11049), so {@code ls -l} prints this line for each symlink it lists while listing it right.
     * Debian's newest runsc (0.0~20240729) has it; a newer runsc gets no such allowance.
     */
    private static final Pattern SYMLINK_XATTR_DEFECT = Pattern.compile("(?m)^ls: [^\\n]+: Bad file descriptor\\n");
    private static final Pattern RELEASE_DATE = Pattern.compile("(20\\d{6})");

    TestApp app;
    TestApp.SessionRef session;
    private boolean symlinkXattrDefectExpected;

    abstract String runtime();

    /** gVisor's platform, as scripts/setup-host.sh registers runsc; null for runc. */
    String platform() {
        return null;
    }

    @BeforeEach
    void start() {
        app = TestApp.shared(runtime());
        session = app.createSession(); // a fresh, empty workspace for each test
        symlinkXattrDefectExpected = symlinkXattrDefectExpected();
    }

    private JsonObject run(String language, String code) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", code);
        body.put("language", language);
        TestApp.Response r = app.post("/api/v1/sessions/" + session.id() + "/execute", Json.write(body), session.token());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    /** {@code code}'s stdout, after checking it succeeded and printed no error text anywhere. */
    private String cleanly(String language, String code) {
        JsonObject r = run(language, code);
        String stdout = r.string("stdout");
        String stderr = r.string("stderr");
        if (symlinkXattrDefectExpected) {
            stderr = SYMLINK_XATTR_DEFECT.matcher(stderr).replaceAll("");
        }
        String results = r.objectList("results").stream().map(o -> String.valueOf(o.asMap().get("text/plain")))
                .collect(Collectors.joining("\n"));
        String what = language + " `" + code + "` on " + runtime() + " answered " + r.asMap();
        assertThat(r.optBoolean("success", false)).as(what).isTrue();
        assertThat(stderr).as(what).isEmpty();
        assertThat(stdout + results).as(what).doesNotContain(ERROR_TEXTS);
        return stdout;
    }

    private String bash(String command) {
        return cleanly("bash", command);
    }

    private String python(String code) {
        return cleanly("python", code);
    }

    private boolean symlinkXattrDefectExpected() {
        if (!runtime().equals("runsc")) {
            return false;
        }
        String version = app.get("/healthz", null).json().optString("runtime_version", "");
        Matcher date = RELEASE_DATE.matcher(version == null ? "" : version);
        return date.find() && date.group(1).compareTo("20241021") < 0;
    }

    @Test
    void ls_lists_the_root_tmp_and_the_workspace() {
        assertThat(bash("ls /").lines()).contains("bin", "etc", "tmp", "usr", "workspace");
        bash("ls /tmp");
        assertThat(bash("ls -la /workspace")).startsWith("total ").contains(" .\n", " ..\n");
        assertThat(bash("ls -la /")).contains(" workspace\n", " usr\n", " root\n");
        assertThat(bash("ls -l /usr/bin/python3")).contains("/usr/bin/python3 -> python3");
    }

    @Test
    void stat_describes_files_and_directories() {
        assertThat(bash("stat /")).contains("File: /\n");
        assertThat(bash("stat -c '%F %U' /workspace /tmp")).isEqualTo("directory sandbox\ndirectory root\n");
        bash("echo hi > f.txt");
        assertThat(bash("stat -c '%s %F' f.txt")).isEqualTo("3 regular file\n");
    }

    @Test
    void files_are_copied_moved_found_measured_read_archived_and_searched() {
        bash("mkdir -p docs/sub && printf 'alpha\\nbeta\\ngamma\\n' > docs/notes.txt && printf 'beta again\\n' > docs/sub/more.txt");
        assertThat(bash("cp docs/notes.txt copy.txt && cat copy.txt")).isEqualTo("alpha\nbeta\ngamma\n");
        assertThat(bash("cp -r docs docs-copy && ls docs-copy/sub")).isEqualTo("more.txt\n");
        assertThat(bash("mv copy.txt moved.txt && ls").lines()).containsExactly("docs", "docs-copy", "moved.txt");
        assertThat(bash("find . -name '*.txt' | sort")).isEqualTo(
                "./docs-copy/notes.txt\n./docs-copy/sub/more.txt\n./docs/notes.txt\n./docs/sub/more.txt\n./moved.txt\n");
        assertThat(bash("du -s docs")).matches("\\d+\tdocs\n");
        assertThat(bash("du -sh .")).endsWith("\t.\n");
        assertThat(bash("head -n 2 docs/notes.txt")).isEqualTo("alpha\nbeta\n");
        assertThat(bash("wc -l < docs/notes.txt")).isEqualTo("3\n");
        assertThat(bash("tar czf docs.tar.gz docs && tar tzf docs.tar.gz | sort"))
                .isEqualTo("docs/\ndocs/notes.txt\ndocs/sub/\ndocs/sub/more.txt\n");
        assertThat(bash("mkdir unpacked && tar xzf docs.tar.gz -C unpacked && cat unpacked/docs/sub/more.txt")).isEqualTo("beta again\n");
        assertThat(bash("grep -rn beta docs | sort")).isEqualTo("docs/notes.txt:2:beta\ndocs/sub/more.txt:1:beta again\n");
        assertThat(bash("ln -s docs/notes.txt link.txt && ls -l link.txt")).contains("link.txt -> docs/notes.txt");
        assertThat(bash("ls -la").lines()).anyMatch(l -> l.endsWith(" moved.txt")).anyMatch(l -> l.endsWith(" docs"));
    }

    @Test
    void pip_and_node_answer_from_a_shell() {
        assertThat(bash("python3 -m pip --version")).startsWith("pip ");
        assertThat(bash("node -e 'console.log(require(\"fs\").readdirSync(\"/\").includes(\"workspace\"), 6 * 7)'"))
                .isEqualTo("true 42\n");
    }

    @Test
    void python_shell_escapes_and_line_magics_list_and_copy_files() {
        python("open('data.csv', 'w').write('a,b\\n1,2\\n')");
        // `x = !cmd` takes stderr too: an error line would be in the list, and so in what is printed
        assertThat(python("files = !ls /\nprint('workspace' in files, 'usr' in files, files)")).startsWith("True True [");
        assertThat(python("!ls /tmp\nprint(_exit_code)")).endsWith("0\n");
        assertThat(python("!ls -la /workspace")).contains(" data.csv\n");
        assertThat(python("!stat -c %F /")).isEqualTo("directory\n");
        assertThat(python("%cp data.csv copy.csv\n%mv copy.csv moved.csv\n%ls")).contains("data.csv", "moved.csv")
                .doesNotContain("copy.csv");
        assertThat(python("%ls -la /tmp")).startsWith("total ");
        assertThat(python("%%bash\nls / | grep -c workspace\nstat -c %F /workspace")).isEqualTo("1\ndirectory\n");
    }

    @Test
    void javascript_reaches_the_shell_through_child_process() {
        assertThat(cleanly("javascript", "console.log(require('child_process').execSync('ls -la /workspace').toString())"))
                .startsWith("total ");
    }

    @Test
    void healthz_names_the_runtime_sessions_get_its_version_and_its_platform() {
        JsonObject h = app.get("/healthz", null).json();
        assertThat(h.string("runtime")).isEqualTo(runtime());
        assertThat(h.optString("runtime_version", null)).as(h.asMap().toString()).isNotBlank();
        assertThat(h.optString("runtime_platform", null)).as(h.asMap().toString()).isEqualTo(platform());
    }
}
