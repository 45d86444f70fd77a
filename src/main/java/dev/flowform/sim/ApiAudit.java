package dev.flowform.sim;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The embedded API server's audit log: every request a client other than the simulator itself sent, as
 * {@link ApiRequest}s in arrival order. Tests derive from it the permissions a command needs (RBAC proven by
 * what was requested, not guessed). Kept in memory only; bearer tokens appear as fingerprints.
 *
 * <p>Keeps the newest {@value #CAPACITY} requests, so a long-running cluster does not grow without bound.
 * Thread-safe: the server's event loop appends while a test reads.
 */
public final class ApiAudit {
    /** How many requests are kept at most; older ones are dropped first. */
    public static final int CAPACITY = 100_000;
    private final Deque<ApiRequest> requests = new ArrayDeque<>();

    /** @param r a request just received */
    synchronized void add(ApiRequest r) {
        if (requests.size() == CAPACITY) {
            requests.removeFirst();
        }
        requests.addLast(r);
    }

    /** @return the requests recorded since start or the last {@link #clear()}, oldest first */
    public synchronized List<ApiRequest> requests() {
        return List.copyOf(requests);
    }

    /** @return the requests recorded so far, and forgets them */
    public synchronized List<ApiRequest> drain() {
        List<ApiRequest> out = List.copyOf(requests);
        requests.clear();
        return out;
    }

    /** Forgets every request recorded so far. */
    public synchronized void clear() {
        requests.clear();
    }
}
