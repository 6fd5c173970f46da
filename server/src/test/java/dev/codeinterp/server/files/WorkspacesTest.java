package dev.codeinterp.server.files;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Workspaces on this host (the tests run as root, as the server does): each its own bounded tmpfs. */
class WorkspacesTest {
    @TempDir
    Path root;

    @Test
    void a_workspace_is_a_tmpfs_of_its_own_bounded_in_size_and_destroy_leaves_nothing_mounted() {
        Workspaces workspaces = new Workspaces(root, 1 << 20);
        Workspace w = workspaces.create();
        try {
            assertThat(workspaces.bounded()).as("this process may mount").isTrue();
            assertThat(Workspaces.isMountPoint(w.dir())).isTrue();
            assertThat(w.freeBytes()).isBetween(1L, 1L << 20);
            w.write("a.txt", new ByteArrayInputStream("hello".getBytes()), 100);
            assertThat(Workspaces.isMountPoint(root)).as("the folder holding workspaces is no mount").isFalse();
        } finally {
            workspaces.destroy(w);
        }
        assertThat(Files.exists(w.dir())).isFalse();
        assertThat(workspaces.retainOnly(Set.of())).isZero();
    }

    @Test
    void a_workspace_opened_again_after_its_mount_was_lost_is_mounted_again() {
        Workspaces workspaces = new Workspaces(root, 1 << 20);
        Workspace w = workspaces.create();
        workspaces.destroy(w);
        Workspace again = workspaces.open(w.id());
        try {
            assertThat(Workspaces.isMountPoint(again.dir())).isTrue();
        } finally {
            workspaces.destroy(again);
        }
    }

    @Test
    void a_plain_folder_or_a_missing_one_is_no_mount_point() throws Exception {
        Path plain = Files.createDirectory(root.resolve("plain"));
        assertThat(Workspaces.isMountPoint(plain)).isFalse();
        assertThat(Workspaces.isMountPoint(root.resolve("missing"))).isFalse();
    }
}
