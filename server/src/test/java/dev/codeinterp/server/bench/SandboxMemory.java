package dev.codeinterp.server.bench;

import dev.codeinterp.server.sandbox.DockerSandboxBackend;
import dev.codeinterp.server.session.Tokens;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Memory of one server's sandboxes, read from their cgroups (cgroup v1 or v2; `docker stats` only
 * when neither is found, since it takes about a second per call). The server labels its
 * containers with its deployment, a hash of its data directory, so other servers' sandboxes on the
 * same engine are not counted.
 */
final class SandboxMemory {
    private final String deploymentId;

    SandboxMemory(Path dataDir) {
        // mirrors Main.deploymentId: the first 16 hex digits of SHA-256 of the data directory's path
        this.deploymentId = Tokens.hash(dataDir.toString()).substring(0, 16);
    }

    /** Memory of one container in MiB: all it is charged, without reclaimable file cache, and anonymous memory. */
    record Usage(double usageMiB, double workingSetMiB, double anonMiB) {
    }

    record Report(int containers, int measured, Samples usage, Samples workingSet, Samples anon, String source) {
    }

    List<String> containerIds() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("docker", "ps", "-q", "--no-trunc",
                "--filter", "label=" + DockerSandboxBackend.LABEL_MANAGED + "=true",
                "--filter", "label=" + DockerSandboxBackend.LABEL_DEPLOYMENT + "=" + deploymentId)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(60, TimeUnit.SECONDS);
        List<String> ids = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (!line.isBlank()) {
                ids.add(line.trim());
            }
        }
        return ids;
    }

    Report measure() throws IOException, InterruptedException {
        List<String> ids = containerIds();
        Samples usage = new Samples();
        Samples workingSet = new Samples();
        Samples anon = new Samples();
        List<String> unread = new ArrayList<>();
        for (String id : ids) {
            Usage u = fromCgroup(id);
            if (u == null) {
                unread.add(id);
                continue;
            }
            usage.add(u.usageMiB());
            workingSet.add(u.workingSetMiB());
            anon.add(u.anonMiB());
        }
        String source = "cgroup";
        if (!unread.isEmpty()) {
            for (double mib : fromDockerStats(unread)) {
                workingSet.add(mib);
            }
            source = usage.count() == 0 ? "docker stats" : "cgroup, docker stats for " + unread.size();
        }
        return new Report(ids.size(), workingSet.count(), usage, workingSet, anon, source);
    }

    private static Usage fromCgroup(String id) throws IOException {
        Path v1 = Path.of("/sys/fs/cgroup/memory/docker", id);
        if (Files.isRegularFile(v1.resolve("memory.usage_in_bytes"))) {
            long used = readLong(v1.resolve("memory.usage_in_bytes"));
            Map<String, Long> stat = readStat(v1.resolve("memory.stat"));
            return usage(used, stat.getOrDefault("total_inactive_file", 0L), stat.getOrDefault("total_rss", 0L));
        }
        for (Path v2 : List.of(Path.of("/sys/fs/cgroup/docker", id), Path.of("/sys/fs/cgroup/system.slice", "docker-" + id + ".scope"))) {
            if (Files.isRegularFile(v2.resolve("memory.current"))) {
                long used = readLong(v2.resolve("memory.current"));
                Map<String, Long> stat = readStat(v2.resolve("memory.stat"));
                return usage(used, stat.getOrDefault("inactive_file", 0L), stat.getOrDefault("anon", 0L));
            }
        }
        return null;
    }

    private static Usage usage(long used, long inactiveFile, long anon) {
        double mib = 1024.0 * 1024.0;
        return new Usage(used / mib, Math.max(0, used - inactiveFile) / mib, anon / mib);
    }

    /** `docker stats` shows usage without inactive file cache, like the cgroup working set above. */
    private static List<Double> fromDockerStats(List<String> ids) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("docker", "stats", "--no-stream", "--format", "{{.MemUsage}}"));
        cmd.addAll(ids);
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(120, TimeUnit.SECONDS);
        List<Double> mib = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (!line.isBlank()) {
                mib.add(parseSize(line.split("/")[0].trim()));
            }
        }
        return mib;
    }

    private static double parseSize(String s) {
        Map<String, Double> units = Map.of("B", 1.0 / 1048576, "KiB", 1.0 / 1024, "MiB", 1.0, "GiB", 1024.0, "kB", 1e3 / 1048576,
                "MB", 1e6 / 1048576, "GB", 1e9 / 1048576);
        String number = s.replaceAll("[^0-9.]", "");
        String unit = s.replaceAll("[0-9.]", "").trim();
        return Double.parseDouble(number) * units.getOrDefault(unit, Double.NaN);
    }

    private static long readLong(Path file) throws IOException {
        return Long.parseLong(Files.readString(file).trim());
    }

    private static Map<String, Long> readStat(Path file) throws IOException {
        Map<String, Long> stat = new HashMap<>();
        if (!Files.isRegularFile(file)) {
            return stat;
        }
        for (String line : Files.readAllLines(file)) {
            String[] kv = line.split(" ");
            if (kv.length == 2) {
                stat.put(kv[0], Long.parseLong(kv[1]));
            }
        }
        return stat;
    }
}
