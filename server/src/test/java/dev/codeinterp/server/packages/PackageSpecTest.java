package dev.codeinterp.server.packages;

import dev.codeinterp.model.Language;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PackageSpecTest {

    @Test
    void python_names_compare_as_pep_503_says_and_keep_an_exact_version() {
        assertThat(PackageSpec.parse(Language.PYTHON, "Python_Docx").name()).isEqualTo("python-docx");
        assertThat(PackageSpec.parse(Language.PYTHON, "zope.Interface").name()).isEqualTo("zope-interface");
        assertThat(PackageSpec.parse(Language.PYTHON, "a-_.b").name()).isEqualTo("a-b");
        PackageSpec pinned = PackageSpec.parse(Language.PYTHON, "Tabulate==0.9.0");
        assertThat(pinned.requirement()).isEqualTo("tabulate==0.9.0");
    }

    @Test
    void npm_names_keep_their_scope_and_an_exact_version() {
        assertThat(PackageSpec.parse(Language.JAVASCRIPT, "@types/node@20.1.0").requirement()).isEqualTo("@types/node@20.1.0");
        assertThat(PackageSpec.parse(Language.JAVASCRIPT, "is-odd").requirement()).isEqualTo("is-odd");
    }

    @ParameterizedTest
    @ValueSource(strings = {"../x", "--index-url=http://evil/simple", "-e", "git+https://github.com/x/y", "a b", "numpy; os_name=='posix'",
            "numpy>=1", "numpy[extra]", "/etc/passwd", "file:///tmp/x.whl", "x==1 --pre", "https://evil/x.whl", "", " numpy",
            "numpy\n--index-url=x", "x@1", "x==*", ".hidden"})
    void hostile_python_requests_are_refused_before_any_tool_sees_them(String given) {
        assertThatThrownBy(() -> PackageSpec.parse(Language.PYTHON, given)).isInstanceOf(PackageRefusedException.class)
                .hasMessageStartingWith("python package '");
    }

    @ParameterizedTest
    @ValueSource(strings = {"../x", "--registry=http://evil", "-g", "git+https://github.com/x/y", "github:x/y", "x y", "IsOdd",
            "file:../x", "x@^1", "x@latest || y", "@scope", "@scope/", "http://evil/x.tgz", "x@1 --foo", "_x", ".x", "x@file:../y"})
    void hostile_npm_requests_are_refused_before_any_tool_sees_them(String given) {
        assertThatThrownBy(() -> PackageSpec.parse(Language.JAVASCRIPT, given)).isInstanceOf(PackageRefusedException.class)
                .hasMessageStartingWith("javascript package '");
    }

    @Test
    void bash_installs_nothing() {
        assertThatThrownBy(() -> PackageSpec.parse(Language.BASH, "jq")).isInstanceOf(PackageRefusedException.class)
                .hasMessageContaining("python and javascript");
    }

    @Test
    void the_allowlist_file_is_read_as_documented_and_the_shipped_one_loads() {
        Allowlist list = Allowlist.parse(List.of("# comment", "python Some_Pkg  # why", "", "javascript is-odd"), "test");
        assertThat(list.allows(PackageSpec.parse(Language.PYTHON, "some.pkg"))).isTrue();
        assertThat(list.allows(PackageSpec.parse(Language.PYTHON, "some-pkg==1.0"))).isTrue();
        assertThat(list.allows(PackageSpec.parse(Language.JAVASCRIPT, "is-odd"))).isTrue();
        assertThat(list.allows(PackageSpec.parse(Language.PYTHON, "is-odd"))).as("per language").isFalse();
        assertThatThrownBy(() -> Allowlist.parse(List.of("python numpy==1.0"), "f")).hasMessageContaining("f:1");
        assertThatThrownBy(() -> Allowlist.parse(List.of("cobol x"), "f")).hasMessageContaining("f:1");
        assertThat(Allowlist.load(null).size()).isGreaterThan(10);
        Allowlist shipped = Allowlist.load(null);
        assertThat(shipped.preinstalled(PackageSpec.parse(Language.PYTHON, "NumPy"))).as("in the image: installs nothing").isTrue();
        assertThat(shipped.preinstalled(PackageSpec.parse(Language.PYTHON, "openpyxl"))).isFalse();
        assertThatThrownBy(() -> Allowlist.parse(List.of("python x installed"), "f")).hasMessageContaining("f:1");
    }
}
