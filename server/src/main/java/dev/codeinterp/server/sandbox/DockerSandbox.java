// Over 300 lines: one container's attach, line assembly, replay and diagnosis share the attach stream's state; split, each piece would need all of it.
package dev.codeinterp.server.sandbox;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.StreamType;
import dev.codeinterp.model.json.JsonException;
import dev.codeinterp.model.runner.RunnerMessage;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.server.files.Workspace;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One container running the runner, attached before start (or, adopted from an earlier server
 * process, attached while it runs): stdin is a {@link StdinFeed}, stdout frames are reassembled into
 * lines, counted and decoded. The count is what {@link RunnerOutput#linesThrough()} and the runner's
 * {@code replay} speak of. Whatever the runner writes is untrusted.
 */
final class DockerSandbox implements Sandbox {
    private static final Logger log = LoggerFactory.getLogger(DockerSandbox.class);
    /** Largest runner line kept: enough for a big PNG, small enough that a hostile line cannot hurt. */
    static final int MAX_LINE_BYTES = 16 << 20;
    /** What the runner keeps unacknowledged (its JOURNAL_BYTES), for the message that says some was lost. */
    static final int JOURNAL_BYTES = 16 << 20;
    private static final int TAIL_CHARS = 2000;
    private static final long ATTACH_TIMEOUT_S = 30;
    /** A long cell's output is acknowledged at least every this many lines; otherwise the ack rides on the next command. */
    static final long ACK_EVERY_LINES = 256;

    private final DockerClient docker;
    private final DockerClient streams;
    private final String containerId;
    private final String runtime;
    private final Workspace workspace;
    private final Consumer<String> removal;
    private final Consumer<String> keeping;
    private final StdinFeed stdin = new StdinFeed();
    private final CompletableFuture<RunnerMessage.Ready> ready = new CompletableFuture<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final StringBuilder tail = new StringBuilder();
    private final LineAssembler lines;
    private volatile Consumer<RunnerOutput> messages = m -> { };
    /** The messages of the frame being read; touched only by the attach stream's thread. */
    private final List<RunnerMessage> read = new ArrayList<>();
    /** The runner's lines read so far (written by the attach thread only); an adopted sandbox learns it from the runner's {@code replay}. */
    private volatile long linesRead;
    /** Adopted and not yet replayed: lines before the runner's {@code replay} come again after it, so they are skipped. */
    private volatile boolean awaitingReplay;
    /** Adopted: the replay is asked for once the session listens ({@link #onOutput}), so none of it goes unheard. */
    private long replayFrom = -1;
    /** The lines stored ({@link #acknowledge}) and the last count told to the runner; the session's worker only. */
    private long acknowledged;
    private long acknowledgementSent;
    private volatile ResultCallback.Adapter<Frame> stream;
    private volatile boolean detached;
    private volatile Runnable exited = () -> { };
    private volatile boolean alive = true;
    /** The kernel's OOM killer struck this container ({@link OomWatch}): it was killed, and dies of memory. */
    private volatile boolean outOfMemory;

    /**
     * {@code docker} for short calls, {@code streams} for the attach; {@code removal} takes the
     * container when closed, {@code keeping} hears of one detached (left running for a later process).
     */
    DockerSandbox(DockerClient docker, DockerClient streams, String containerId, String runtime, Workspace workspace,
                  Consumer<String> removal, Consumer<String> keeping) {
        this.docker = docker;
        this.streams = streams;
        this.containerId = containerId;
        this.runtime = runtime;
        this.workspace = workspace;
        this.removal = removal;
        this.keeping = keeping;
        this.lines = new LineAssembler(MAX_LINE_BYTES, this::onLine, this::onOversizedLine);
    }

    /**
     * A sandbox of an earlier server process, attached while it runs: the runner is asked to send
     * again every line after the first {@code linesStored} (those are stored), and until its
     * {@code replay} answer comes, what arrives is skipped (it comes again after it).
     */
    void adopt(long linesStored) throws InterruptedException {
        awaitingReplay = true;
        acknowledged = linesStored;
        acknowledgementSent = linesStored;
        replayFrom = linesStored;
        attach();
    }

    /**
     * Attaches to the created container; must happen before it starts so no output is lost. Waits
     * for the stream to open, or fails: docker-java's own {@code awaitStarted()} never returns when
     * the attach fails before it opens (the engine went away between create and attach), which
     * once held a session's worker and a start slot forever.
     */
    void attach() throws InterruptedException {
        CompletableFuture<Void> opened = new CompletableFuture<>();
        ResultCallback.Adapter<Frame> callback = new ResultCallback.Adapter<>() {
            @Override
            public void onStart(java.io.Closeable stream) {
                super.onStart(stream);
                opened.complete(null);
            }

            @Override
            public void onNext(Frame frame) {
                if (frame.getStreamType() == StreamType.STDERR) {
                    remember(new String(frame.getPayload(), StandardCharsets.UTF_8));
                } else {
                    lines.accept(frame.getPayload());
                    deliverRead();
                }
            }

            @Override
            public void onError(Throwable throwable) {
                opened.completeExceptionally(throwable);
                if (!closed.get()) {
                    log.debug("attach stream of {} failed", shortId(), throwable);
                }
                ended();
            }

            @Override
            public void onComplete() {
                opened.complete(null);
                ended();
            }
        };
        stream = callback;
        streams.attachContainerCmd(containerId)
                .withStdIn(stdin)
                .withStdOut(true)
                .withStdErr(true)
                .withFollowStream(true)
                .exec(callback);
        try {
            opened.get(ATTACH_TIMEOUT_S, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new SandboxException("could not attach to the sandbox: " + e.getCause().getMessage(), e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new SandboxException("the engine did not open the sandbox's stream within " + ATTACH_TIMEOUT_S + " s", e);
        }
    }

    CompletableFuture<RunnerMessage.Ready> ready() {
        return ready;
    }

    private void onLine(String line) {
        RunnerMessage message;
        try {
            message = WireCodec.decodeRunnerLine(line);
        } catch (JsonException e) {
            // not protocol: something the cell wrote past the runner; keep it for diagnosis only
            remember(line + "\n");
            counted();
            return;
        }
        if (message instanceof RunnerMessage.Replay replay) {
            if (awaitingReplay) {
                awaitingReplay = false;
                linesRead = replay.from();
                if (replay.lost() > 0) {
                    read.add(new RunnerMessage.ProtocolError(replay.lost() + " line(s) of output written while the server was "
                            + "away were lost: more than the runner keeps (" + (JOURNAL_BYTES >> 20) + " MiB) waited to be stored"));
                }
            }
            return; // not one of the runner's numbered lines
        }
        if (!counted()) {
            return;
        }
        if (message instanceof RunnerMessage.Ready r && !ready.isDone()) {
            ready.complete(r);
            return;
        }
        read.add(message);
    }

    /** Counts a line of the runner's; false when it is skipped, as one that comes again after the replay. */
    private boolean counted() {
        if (awaitingReplay) {
            return false;
        }
        linesRead++;
        return true;
    }

    private void onOversizedLine(long bytes) {
        if (!counted()) {
            return;
        }
        read.add(new RunnerMessage.ProtocolError("dropped an output of " + bytes
                + " bytes: larger than the " + (MAX_LINE_BYTES >> 20) + " MiB limit for one output"));
    }

    private void deliverRead() {
        if (!read.isEmpty() && !detached) {
            RunnerOutput these = new RunnerOutput(read, linesRead);
            read.clear();
            messages.accept(these);
        }
    }

    private synchronized void remember(String text) {
        tail.append(text);
        if (tail.length() > TAIL_CHARS) {
            tail.delete(0, tail.length() - TAIL_CHARS);
        }
    }

    private void ended() {
        if (!alive || detached) {
            return;
        }
        alive = false;
        ready.completeExceptionally(new SandboxException("the sandbox exited before it was ready: " + lastOutput()));
        exited.run();
    }

    private synchronized String lastOutput() {
        return tail.toString();
    }

    @Override
    public String id() {
        return containerId;
    }

    @Override
    public String runtime() {
        return runtime;
    }

    @Override
    public Workspace workspace() {
        return workspace;
    }

    @Override
    public void onOutput(Consumer<RunnerOutput> messages, Runnable exited) {
        this.messages = messages;
        this.exited = exited;
        if (!alive) {
            exited.run();
        } else if (replayFrom >= 0) {
            stdin.write((WireCodec.encodeRunnerReplay(replayFrom) + "\n").getBytes(StandardCharsets.UTF_8));
            replayFrom = -1;
        }
    }

    @Override
    public void send(String line) {
        String pending = acknowledged > acknowledgementSent ? WireCodec.encodeRunnerAck(acknowledged) + "\n" : "";
        acknowledgementSent = acknowledged;
        stdin.write((pending + line + "\n").getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public long linesRead() {
        return linesRead;
    }

    /** Told to the runner with the next command, or at once when a long cell has piled up {@link #ACK_EVERY_LINES}. */
    @Override
    public void acknowledge(long lines) {
        acknowledged = Math.max(acknowledged, lines);
        if (acknowledged - acknowledgementSent >= ACK_EVERY_LINES) {
            acknowledgementSent = acknowledged;
            stdin.write((WireCodec.encodeRunnerAck(acknowledged) + "\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * Closes our attach stream and leaves the container running. The container keeps its stdin open
     * after our end of it closes (created without {@code StdinOnce}), so the runner goes on.
     */
    @Override
    public void detach() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        detached = true;
        alive = false;
        keeping.accept(containerId);
        stdin.close();
        ResultCallback.Adapter<Frame> open = stream;
        if (open != null) {
            try {
                open.close();
            } catch (java.io.IOException | RuntimeException e) {
                log.debug("closing the attach stream of {}", shortId(), e);
            }
        }
    }

    /**
     * The kernel killed a process of this container for memory, which leaves a gVisor sandbox stuck
     * at its limit: it is killed now (off the watch's thread), and its exit is out of memory.
     */
    void outOfMemory() {
        outOfMemory = true;
        log.info("sandbox {} hit its memory limit: killing it", shortId());
        Thread killer = new Thread(() -> {
            try {
                docker.killContainerCmd(containerId).exec();
            } catch (RuntimeException e) {
                log.debug("killing {} after an OOM kill", shortId(), e); // already gone: its exit is reported all the same
            }
        }, "oom-kill-" + shortId());
        killer.setDaemon(true);
        killer.start();
    }

    /** Whether the engine says the container runs. */
    boolean running() {
        try {
            return Boolean.TRUE.equals(docker.inspectContainerCmd(containerId).exec().getState().getRunning());
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Override
    public SandboxExit diagnose() {
        try {
            InspectContainerResponse.ContainerState state = docker.inspectContainerCmd(containerId).exec().getState();
            Long code = state.getExitCodeLong();
            boolean oom = outOfMemory || Boolean.TRUE.equals(state.getOOMKilled());
            return SandboxExit.inspected(code == null ? null : code.intValue(), oom, lastOutput());
        } catch (RuntimeException e) {
            return outOfMemory ? SandboxExit.inspected(null, true, lastOutput()) : SandboxExit.uninspectable(lastOutput());
        }
    }

    @Override
    public boolean alive() {
        return alive;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        alive = false;
        stdin.close();
        removal.accept(containerId);
    }

    private String shortId() {
        return containerId.substring(0, Math.min(12, containerId.length()));
    }
}
