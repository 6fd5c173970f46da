package dev.codeinterp.server.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where the machine's CPU went between two snapshots of /proc: the server, the load client, and
 * every other process grouped by name (dockerd, containerd, the shims that run runc, the sandboxes'
 * python3...). Children a process has reaped count for their parent, so short-lived runc calls
 * show under their shim; what exited unreaped stays in "unattributed".
 */
final class CpuAccount {
    private static final double TICKS_PER_SECOND = 100.0; // USER_HZ on Linux

    private final long machineBusyTicks;
    private final long wallNanos = System.nanoTime();
    private final Map<Long, Process> processes;

    private record Process(String name, long ticks) {
    }

    private CpuAccount(long machineBusyTicks, Map<Long, Process> processes) {
        this.machineBusyTicks = machineBusyTicks;
        this.processes = processes;
    }

    static CpuAccount snapshot() {
        Map<Long, Process> processes = new HashMap<>();
        try (Stream<Path> dirs = Files.list(Path.of("/proc"))) {
            dirs.filter(d -> d.getFileName().toString().chars().allMatch(Character::isDigit)).forEach(d -> {
                Process p = readProcess(d.resolve("stat"));
                if (p != null) {
                    processes.put(Long.parseLong(d.getFileName().toString()), p);
                }
            });
        } catch (IOException e) {
            // no /proc: the report says nothing was measured
        }
        return new CpuAccount(machineBusy(), processes);
    }

    /** e.g. "18.2 s wall, machine busy 35.1 CPU-s of 36.4: dockerd 9.0, containerd-shim 7.2, …". */
    String since(CpuAccount before, long serverPid) {
        return since(before, List.of(serverPid));
    }

    /** The same with several servers (a cluster's nodes), counted together as "servers". */
    String since(CpuAccount before, List<Long> serverPids) {
        Breakdown b = breakdown(before, serverPids);
        double wall = (wallNanos - before.wallNanos) / 1e9;
        StringBuilder sb = new StringBuilder(String.format("%.1f s wall, machine busy %.1f CPU-s of %.1f:", wall,
                b.busy / TICKS_PER_SECOND, wall * Runtime.getRuntime().availableProcessors()));
        b.top.forEach((name, ticks) -> sb.append(String.format(" %s %.1f,", name, ticks / TICKS_PER_SECOND)));
        sb.append(String.format(" other processes %.1f, unattributed (exited) %.1f",
                b.otherTicks() / TICKS_PER_SECOND, b.unattributedTicks() / TICKS_PER_SECOND));
        return sb.toString();
    }

    /** The same account divided over {@code cells}, in ms of CPU per cell: "machine 4.1 ms: server 1.3, …". */
    String perCell(CpuAccount before, long serverPid, int cells) {
        return perCell(before, List.of(serverPid), cells);
    }

    String perCell(CpuAccount before, List<Long> serverPids, int cells) {
        Breakdown b = breakdown(before, serverPids);
        double msPerTick = 1000.0 / TICKS_PER_SECOND / Math.max(1, cells);
        StringBuilder sb = new StringBuilder(String.format("machine %.2f ms:", b.busy * msPerTick));
        b.top.forEach((name, ticks) -> sb.append(String.format(" %s %.2f,", name, ticks * msPerTick)));
        sb.append(String.format(" other processes %.2f, unattributed (exited) %.2f",
                b.otherTicks() * msPerTick, b.unattributedTicks() * msPerTick));
        return sb.toString();
    }

    /** Busy ticks of the machine, the seven biggest users by name, and everything attributed to a process. */
    private record Breakdown(long busy, Map<String, Long> top, long attributed) {
        long otherTicks() {
            return attributed - top.values().stream().mapToLong(Long::longValue).sum();
        }

        long unattributedTicks() {
            return Math.max(0, busy - attributed);
        }
    }

    /** The machine's busy CPU per cell in ms, every process included. */
    double machineMsPerCell(CpuAccount before, int cells) {
        return (machineBusyTicks - before.machineBusyTicks) * 1000.0 / TICKS_PER_SECOND / Math.max(1, cells);
    }

    private Breakdown breakdown(CpuAccount before, List<Long> serverPids) {
        String serverName = serverPids.size() == 1 ? "server" : "servers";
        long self = ProcessHandle.current().pid();
        Map<String, Long> byName = new HashMap<>();
        long attributed = 0;
        for (Map.Entry<Long, Process> e : processes.entrySet()) {
            Process then = before.processes.get(e.getKey());
            // a kernel worker's name changes with its work: a pid is the same process unless its time went down (reused)
            long used = e.getValue().ticks() - (then != null && then.ticks() <= e.getValue().ticks() ? then.ticks() : 0);
            if (used <= 0) {
                continue;
            }
            String name = serverPids.contains(e.getKey()) ? serverName : e.getKey() == self ? "load client" : group(e.getValue().name());
            byName.merge(name, used, Long::sum);
            attributed += used;
        }
        Map<String, Long> top = new LinkedHashMap<>();
        byName.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(7)
                .forEach(e -> top.put(e.getKey(), e.getValue()));
        return new Breakdown(machineBusyTicks - before.machineBusyTicks, top, attributed);
    }

    private static String group(String name) {
        if (name.startsWith("containerd-shim")) {
            return "containerd-shim";
        }
        if (name.startsWith("kworker")) {
            return "kernel workers";
        }
        if (name.equals("exe")) {
            return "runsc sandboxes (exe)"; // gVisor's sentry and gofer re-exec themselves as "exe"
        }
        if (name.equals("java")) {
            return "other JVMs";
        }
        return name.startsWith("python3") ? "python3 (sandboxes)" : name;
    }

    /** utime + stime + reaped children's cutime + cstime, from /proc/<pid>/stat. */
    private static Process readProcess(Path stat) {
        try {
            String s = Files.readString(stat);
            int open = s.indexOf('(');
            int close = s.lastIndexOf(')');
            String[] f = s.substring(close + 2).split(" ");
            long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
            return new Process(s.substring(open + 1, close), ticks);
        } catch (IOException | RuntimeException e) {
            return null; // exited while we looked
        }
    }

    private static long machineBusy() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/stat"));
            String[] f = lines.get(0).trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < Math.min(f.length, 9); i++) { // user..steal; guest is already in user
                total += Long.parseLong(f[i]);
            }
            return total - Long.parseLong(f[4]) - Long.parseLong(f[5]); // minus idle and iowait
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
