package dev.codeinterp.server.cluster;

import dev.codeinterp.server.config.NodeSettings;
import dev.codeinterp.server.store.NodeRepository;
import dev.codeinterp.server.store.StoreException;
import dev.codeinterp.server.store.StoredNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * This server's place among the nodes sharing the store. At start it claims its id (refused while
 * another live server holds it); then, every heartbeat, it says it is alive with its session count,
 * and looks at the others: one unheard for longer than the loss timeout is marked lost, with its
 * sessions, by exactly one of the nodes that noticed ({@code onLost} then ends its cells). A node
 * that finds itself marked lost (it was unheard, e.g. the store was out of its reach) drops what it
 * holds ({@code onDisowned}) and registers again, empty: nothing is owned twice.
 */
public final class NodeRegistry implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(NodeRegistry.class);

    private final NodeRepository nodes;
    private final NodeIdentity me;
    private final NodeSettings settings;
    private final java.util.function.Supplier<String> url;
    private final String runtime;
    private final int capacity;
    private final ScheduledExecutorService beat = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "node-heartbeat");
        t.setDaemon(true);
        return t;
    });
    private volatile IntSupplier sessions = () -> 0;
    private volatile Consumer<String> onLost = node -> { };
    private volatile Runnable onDisowned = () -> { };
    private volatile String state = StoredNode.ACTIVE;
    private volatile boolean handedOver;
    private volatile List<Node> lastSeen = List.of();
    private volatile boolean storeReachable = true;
    /**
     * Since when this node's heartbeats have gone through without a gap, and its last one. It judges
     * others only after a whole loss timeout of them: after a store outage (or a pause of this
     * process) every node looks silent until it beats again, and the first back must not mark the
     * rest lost.
     */
    private volatile long beatingSince;
    private volatile long lastBeatAt;

    /** {@code url}: where this node is reached, asked at each heartbeat (known once the web server has its port). */
    public NodeRegistry(NodeRepository nodes, NodeIdentity me, NodeSettings settings, java.util.function.Supplier<String> url,
                        String runtime, int capacity) {
        this.nodes = nodes;
        this.me = me;
        this.settings = settings;
        this.url = url;
        this.runtime = runtime;
        this.capacity = capacity;
    }

    public String id() {
        return me.id();
    }

    public String state() {
        return state;
    }

    /** The nodes as last seen (this one included), refreshed every heartbeat. */
    public List<Node> nodes() {
        return lastSeen;
    }

    /** Whether this node takes new sessions (not draining). */
    public boolean active() {
        return StoredNode.ACTIVE.equals(state);
    }

    private static List<Node> seen(List<StoredNode> rows) {
        return rows.stream().map(n -> new Node(n.id(), n.state(), n.sessions(), n.capacity(), n.heartbeatAt())).toList();
    }

    /**
     * The URL of the node that runs session {@code sessionId}, when that is another node that can
     * take requests (active or draining) and {@code key} opens it (its token, or its owning API key); empty when it
     * is this node, unknown, closed, lost, its node is stopped or lost, or the key is wrong: the request is
     * then answered here, as such (a wrong token learns nothing, wherever the session is).
     */
    public java.util.Optional<String> ownerUrl(String sessionId, dev.codeinterp.server.session.SessionKey key) {
        return nodes.ownerOf(sessionId)
                .filter(o -> key.opens(o.tokenHash(), o.client()))
                .filter(o -> o.sessionLost() == null && !o.node().id().equals(me.id()))
                .filter(o -> o.node().takesRequests())
                .map(o -> o.node().url());
    }

    /**
     * Claims this node's id: new, this node's own row (the same data directory, restarted), or a lost
     * node's. A live node of another key keeps it: {@link NodeIdTakenException}. One unheard for
     * longer than the loss timeout is marked lost first (its sessions with it), then taken.
     */
    void register() {
        long now = System.currentTimeMillis();
        StoredNode row = new StoredNode(me.id(), url.get(), runtime, capacity, 0, StoredNode.ACTIVE, now, now);
        NodeRepository.Claim claim = nodes.register(row, me.keyHash());
        if (claim == NodeRepository.Claim.REFUSED && markLost(me.id(), now)) {
            claim = nodes.register(row, me.keyHash());
        }
        if (claim == NodeRepository.Claim.REFUSED) {
            StoredNode holder = nodes.find(me.id()).orElse(null);
            throw new NodeIdTakenException("node id '" + me.id() + "' belongs to another server (registered from another data directory"
                    + (holder == null ? "" : ", " + holder.state() + ", last heard " + (now - holder.heartbeatAt()) + " ms ago")
                    + "); give this server its own CODEINTERP_NODE_ID");
        }
        beatingSince = lastBeatAt = now;
        int adopted = nodes.adoptUnowned(me.id());
        log.info("node {} registered ({}) at {}{}", me.id(), claim.name().toLowerCase(java.util.Locale.ROOT), url.get(),
                adopted > 0 ? "; it takes the " + adopted + " session(s) stored before nodes existed" : "");
        lastSeen = seen(nodes.all());
    }

    /**
     * Registers this node ({@link #register}) and starts the heartbeat: {@code sessions} is this
     * node's open count; the two callbacks as the class says. Before this node's sessions start.
     */
    public void start(IntSupplier sessions, Consumer<String> onLost, Runnable onDisowned) {
        this.sessions = sessions;
        this.onLost = onLost;
        this.onDisowned = onDisowned;
        register();
        long every = settings.heartbeat().toMillis();
        beat.scheduleWithFixedDelay(this::beat, every, every, TimeUnit.MILLISECONDS);
    }

    /** The web server listens now: its address goes into the row at once, not at the next heartbeat. */
    public void serving() {
        beat();
    }

    /** This node takes no new sessions (it is being drained); the others see it on its next heartbeat. */
    public void draining() {
        state = StoredNode.DRAINING;
    }

    /** Every session of this draining node went to others: the front door may stop sending it requests. */
    void handedOverAll() {
        handedOver = true;
    }

    public boolean handedOver() {
        return handedOver;
    }

    void beat() {
        long now = System.currentTimeMillis();
        try {
            boolean mine = nodes.heartbeat(me.id(), me.keyHash(), url.get(), state, sessions.getAsInt(), now);
            long written = System.currentTimeMillis();
            if (mine && written - now > settings.heartbeat().toMillis()) {
                // the write waited for the store: the time it carries is old already, so say it again as of now
                now = written;
                mine = nodes.heartbeat(me.id(), me.keyHash(), url.get(), state, sessions.getAsInt(), now);
            }
            if (!mine) {
                log.error("node {} was marked lost by the others (unheard for over {}): dropping its sessions and registering again",
                        me.id(), settings.lossAfter());
                onDisowned.run();
                register();
            }
            if (now - lastBeatAt > 2 * settings.heartbeat().toMillis()) {
                beatingSince = now; // a gap: what this node saw of the others before it is stale
            }
            lastBeatAt = now;
            List<StoredNode> all = nodes.all();
            boolean marked = false;
            boolean mayJudge = now - beatingSince >= settings.lossAfter().toMillis();
            for (StoredNode n : all) {
                if (mayJudge && !n.id().equals(me.id()) && silent(n, now)) {
                    marked |= markLost(n.id(), now);
                }
            }
            lastSeen = seen(marked ? nodes.all() : all); // read again only when this beat changed a node
            if (!storeReachable) {
                log.info("node {}: the store answers again", me.id());
                storeReachable = true;
            }
        } catch (StoreException e) {
            if (storeReachable) {
                log.warn("node {}: heartbeat failed, the store is out of reach ({}); serving what it holds", me.id(), e.getMessage());
                storeReachable = false;
            }
        } catch (RuntimeException e) {
            log.error("node {}: heartbeat failed", me.id(), e);
        }
    }

    private boolean silent(StoredNode n, long now) {
        return (StoredNode.ACTIVE.equals(n.state()) || StoredNode.DRAINING.equals(n.state()))
                && n.heartbeatAt() < now - settings.lossAfter().toMillis();
    }

    /** Marks {@code id} lost if it is silent; true when this call did (then its cells are ended here). */
    private boolean markLost(String id, long now) {
        long silentSince = now - settings.lossAfter().toMillis();
        if (!nodes.markLost(id, silentSince, "the node running this session (" + id + ") was lost; its history stays readable"
                + ", its variables and files are gone; start a new session")) {
            return false;
        }
        log.warn("node {} marked node {} lost (unheard for over {})", me.id(), id, settings.lossAfter());
        onLost.accept(id);
        return true;
    }

    /** A clean stop: the node's sessions stay its own, their sandboxes running, until it starts again. */
    @Override
    public void close() {
        beat.shutdownNow();
        try {
            nodes.markStopped(me.id(), me.keyHash());
        } catch (RuntimeException e) {
            log.warn("node {}: could not record its stop: {}", me.id(), e.getMessage());
        }
    }
}
