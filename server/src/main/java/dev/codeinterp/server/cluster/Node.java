package dev.codeinterp.server.cluster;

/** A node as this one last saw it: its state (active, draining, stopped, lost), sessions, capacity, last heartbeat (ms). */
public record Node(String id, String state, int sessions, int capacity, long heartbeatAt) {
}
