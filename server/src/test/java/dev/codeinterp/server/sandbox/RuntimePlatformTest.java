package dev.codeinterp.server.sandbox;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Which gVisor platform /healthz names, from the engine's registration of the runtime. */
class RuntimePlatformTest {

    private static Map<String, Object> registered(List<String> runscArgs) {
        return Map.of("runc", Map.of("path", "runc"), "runsc", Map.of("path", "/usr/bin/runsc", "runtimeArgs", runscArgs));
    }

    @Test
    void the_platform_setup_host_registers_is_named() {
        assertThat(RuntimePlatform.of("runsc", registered(List.of("--network=none", "--platform=systrap")))).isEqualTo("systrap");
    }

    @Test
    void the_flag_and_its_value_may_come_apart_and_the_last_one_wins() {
        assertThat(RuntimePlatform.of("runsc", registered(List.of("--platform", "ptrace", "--platform=kvm")))).isEqualTo("kvm");
    }

    @Test
    void runc_and_a_runsc_on_its_default_name_none() {
        assertThat(RuntimePlatform.of("runc", registered(List.of("--platform=systrap")))).isNull();
        assertThat(RuntimePlatform.of("runsc", registered(List.of("--network=none")))).isNull();
        assertThat(RuntimePlatform.of("runsc", registered(List.of("--platform")))).isNull();
        assertThat(RuntimePlatform.of("runsc", null)).isNull();
    }
}
