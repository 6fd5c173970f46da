package dev.codeinterp.server.files;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A folder as one tar stream and back: how a suspended session (its checkpoint and its files'
 * archive) travels to another node. GNU tar, as workspaces are archived: owners numeric, links kept
 * as links and never followed, no member outside the folder.
 */
public final class TarStream {
    private TarStream() {
    }

    /** The tar of {@code dir}'s content as it is read; closing it fails when tar did not write it whole. */
    public static InputStream of(Path dir) throws IOException {
        Process tar = new ProcessBuilder("tar", "--numeric-owner", "-C", dir.toString(), "-cf", "-", ".")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        tar.getOutputStream().close();
        return new FilterInputStream(tar.getInputStream()) {
            @Override
            public void close() throws IOException {
                super.close();
                if (!finished(tar) || tar.exitValue() != 0) {
                    throw new IOException("tar could not read " + dir);
                }
            }
        };
    }

    /**
     * Unpacks the tar {@code in} into the new folder {@code dir}; at most {@code maxBytes} are read,
     * past which it fails (and {@code dir} is left for the caller to remove).
     */
    public static void unpack(InputStream in, Path dir, long maxBytes) throws IOException {
        Files.createDirectories(dir);
        // without -P, GNU tar strips a leading '/' and skips members whose names hold '..'
        Process tar = new ProcessBuilder("tar", "--numeric-owner", "--same-owner", "--same-permissions", "-C", dir.toString(),
                "-xf", "-").redirectError(ProcessBuilder.Redirect.DISCARD).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        long total = 0;
        try (OutputStream toTar = tar.getOutputStream()) {
            byte[] buffer = new byte[64 << 10];
            for (int n; (n = in.read(buffer)) >= 0; ) {
                total += n;
                if (total > maxBytes) {
                    tar.destroyForcibly();
                    throw new IOException("more than " + (maxBytes >> 20) + " MiB sent");
                }
                toTar.write(buffer, 0, n);
            }
        } catch (IOException e) {
            tar.destroyForcibly();
            throw e;
        }
        if (!finished(tar) || tar.exitValue() != 0) {
            throw new IOException("the tar sent could not be unpacked");
        }
    }

    private static boolean finished(Process tar) {
        try {
            if (tar.waitFor(60, TimeUnit.SECONDS)) {
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        tar.destroyForcibly();
        return false;
    }
}
