package dev.codeinterp.server.bench;

import java.net.http.HttpClient;
import java.time.Duration;

/**
 * The load client of `./bench-load.sh` (issue 9): one scenario per run against a server the
 * script started. Prints figures, asserts nothing. Each scenario bounds itself; a watchdog ends
 * the process if one still overruns, so a hung server cannot hang the benchmark.
 */
public final class LoadBenchmark {

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: LoadBenchmark busy|idle|roundtrip|restart|suspend|template|packages|cluster-busy|cluster-front (configured by bench-load.sh's environment)");
            System.exit(2);
        }
        BenchConfig config = BenchConfig.fromEnvironment(System.getenv());
        ApiClient api = new ApiClient(config.url(), config.apiKey(), HttpClient.Version.HTTP_1_1);
        switch (args[0]) {
            case "busy" -> {
                watchdog(config.createDeadline().plus(config.duration()).plusSeconds(240));
                try (ServerProbe probe = new ServerProbe(api, config.serverPid(), config.healthEvery()).start()) {
                    new BusyScenario(config, api, probe).run();
                }
            }
            case "idle" -> {
                watchdog(config.idleDeadline().plus(config.settle()).plusSeconds(900));
                try (ServerProbe probe = new ServerProbe(api, config.serverPid(), config.healthEvery()).start()) {
                    new IdleScenario(config, api, probe).run();
                }
            }
            case "roundtrip" -> {
                watchdog(Duration.ofMinutes(10));
                new RoundTripScenario(config).run();
            }
            case "restart" -> {
                watchdog(config.createDeadline().plusSeconds(600));
                new RestartScenario(config, api, System.getenv()).run();
            }
            case "suspend" -> {
                // SUSPEND_HELD sessions are made and suspended at ~3 a second on this machine kind, used again in the same
                watchdog(config.createDeadline().plusSeconds(900 + Integer.parseInt(System.getenv().getOrDefault("SUSPEND_HELD", "0"))));
                new SuspendScenario(config, api, System.getenv()).run();
            }
            case "template" -> {
                watchdog(config.createDeadline().plusSeconds(1200));
                new TemplateScenario(config, api, System.getenv()).run();
            }
            case "cluster-busy" -> {
                watchdog(config.createDeadline().plus(config.duration()).plusSeconds(240));
                ClusterScenario cluster = new ClusterScenario(config, System.getenv());
                ApiClient firstNode = new ApiClient(cluster.firstNodeUrl(), config.apiKey(), HttpClient.Version.HTTP_1_1);
                try (ServerProbe probe = new ServerProbe(firstNode, config.serverPid(), config.healthEvery()).start()) {
                    cluster.busy(api, probe);
                }
            }
            case "cluster-front" -> {
                watchdog(config.createDeadline().plus(Duration.ofMinutes(10)));
                new ClusterScenario(config, System.getenv()).frontDoor(api);
            }
            case "packages" -> {
                watchdog(Duration.ofMinutes(10));
                new PackagesScenario(config.url(), System.getenv()).run();
            }
            default -> {
                System.err.println("unknown scenario '" + args[0] + "': busy, idle, roundtrip, restart, suspend, template, packages, cluster-busy or cluster-front");
                System.exit(2);
            }
        }
        System.exit(0);
    }

    /** Ends the process after {@code limit}, saying so, whatever the scenario is waiting for. */
    private static void watchdog(Duration limit) {
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(limit.toMillis());
                System.out.println("!! scenario passed its hard deadline of " + limit.toSeconds() + " s; stopped");
                System.exit(3);
            } catch (InterruptedException e) {
                // the scenario ended first
            }
        }, "watchdog");
        t.setDaemon(true);
        t.start();
    }
}
