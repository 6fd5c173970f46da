package dev.codeinterp.model;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Every enum with wire names reads them back through one helper: its own name, or null. */
class WireNameTest {
    @Test
    void a_wire_name_reads_back_as_its_constant_and_anything_else_as_null() {
        for (EventType t : EventType.values()) {
            assertThat(EventType.fromWire(t.wire())).isSameAs(t);
        }
        assertThat(WireName.find(Status.values(), "timeout")).isSameAs(Status.TIMEOUT);
        assertThat(WireName.find(Status.values(), "TIMEOUT")).isNull();
        assertThat(WireName.find(Limit.values(), "nope")).isNull();
        assertThat(WireName.find(Limit.values(), null)).isNull();
    }
}
