package dev.flowform.sim;

import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Wraps the mock's CRUD dispatcher: counts requests, injects write faults, tracks watch WebSockets, reports writes
 * for persistence, answers a handler exception with a 422 {@code Status}, and runs watch-close callbacks on a thread
 * of their own (the mock's would otherwise wait on its own event loop).
 */
final class SimDispatcher extends Dispatcher {
    /** User agent of the simulator's own client; write faults never hit it. */
    static final String SIM_USER_AGENT = "flowform-sim";

    private static final Pattern STRIMZI_WRITE_PATH = Pattern.compile(
            "^/apis/kafka\\.strimzi\\.io/[^/]+/(?:namespaces/[^/]+/)?(kafkaconnects|kafkaconnectors)(?:/([^/]+))?(?:/.*)?$");

    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(SimDispatcher.class.getName());

    private final Dispatcher delegate;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong clientRequests = new AtomicLong();
    private final AtomicLong clientNanos = new AtomicLong();
    private final AtomicLong refusedSimulatorWrites = new AtomicLong();
    private final Set<WebSocket> openWatches = ConcurrentHashMap.newKeySet();
    private final ExecutorService offload = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "flowform-sim-watch-close");
        t.setDaemon(true);
        return t;
    });
    private final ApiAudit audit = new ApiAudit();
    private volatile SimFaults faults;
    private volatile KubectlCompat compat;
    private volatile StrimziAdmission admission;
    private volatile Runnable onWrite = () -> { };
    private volatile Runnable onRequest = () -> { };
    private volatile Runnable onMirrorMakerWrite = () -> { };

    SimDispatcher(Dispatcher delegate) {
        this.delegate = delegate;
    }

    void faults(SimFaults f) {
        this.faults = f;
    }

    /** @param c what kubectl needs beyond the CRUD mock (discovery, patch types); null to serve only the mock */
    void compat(KubectlCompat c) {
        this.compat = c;
    }

    /**
     * Makes every write to a Strimzi object go through the API server's admission: schema validation and pruning,
     * the authorization and admission switches of {@code faults}, dry runs.
     *
     * @param api the Strimzi version the cluster serves
     */
    void admission(dev.flowform.model.StrimziApi api) {
        this.admission = new StrimziAdmission(api, delegate::dispatch, faults);
    }

    /** @return the mock's CRUD handling of a request, without the audit, the counts, the faults or the hooks */
    java.util.function.Function<RecordedRequest, MockResponse> store() {
        return delegate::dispatch;
    }

    void onRequest(Runnable r) {
        this.onRequest = r;
    }

    void onWrite(Runnable r) {
        this.onWrite = r;
    }

    /** @param r runs on the event loop after each successful write to a KafkaMirrorMaker2; must not block */
    void onMirrorMakerWrite(Runnable r) {
        this.onMirrorMakerWrite = r;
    }

    long requestCount() {
        return requests.get();
    }

    long clientRequestCount() {
        return clientRequests.get();
    }

    /** @return writes of the simulated operator that the API server's admission refused (each a simulator bug) */
    long refusedSimulatorWrites() {
        return refusedSimulatorWrites.get();
    }

    long clientRequestNanos() {
        return clientNanos.get();
    }

    /** @return the log of every request from clients other than the simulator */
    ApiAudit audit() {
        return audit;
    }

    int openWatchCount() {
        return openWatches.size();
    }

    /**
     * @return the items of a list read straight from the CRUD store (usable on the server's own event loop); empty on
     *         an error
     */
    List<Map<String, Object>> list(String path) {
        MockResponse r = delegate.dispatch(new RecordedRequest("HTTP/1.1", HttpMethod.GET, path, Headers.builder().build(),
                new Buffer()));
        if (r.code() != 200 || r.getBody() == null) {
            return new ArrayList<>();
        }
        Map<String, Object> body = JsonMaps.map(JsonMaps.MAPPER.readValue(r.getBody().getBytes(), Map.class));
        List<Map<String, Object>> items = new ArrayList<>();
        if (body != null) {
            JsonMaps.list(body.get("items")).forEach(i -> items.add(JsonMaps.map(i)));
        }
        return items;
    }

    /**
     * Sends one write straight to the CRUD store, without HTTP, audit, counts, faults or hooks: how the cluster loads.
     *
     * @return the stored object as the API server answers it
     * @throws IllegalStateException when the store refuses the write (its status code and message)
     */
    Map<String, Object> write(HttpMethod method, String path, Map<String, Object> body) {
        MockResponse r = delegate.dispatch(new RecordedRequest("HTTP/1.1", method, path,
                Headers.builder().add("Content-Type", "application/json").build(),
                new Buffer(JsonMaps.MAPPER.writeValueAsBytes(body))));
        String answer = r.getBody() == null ? "" : new String(r.getBody().getBytes(), StandardCharsets.UTF_8);
        if (r.code() < 200 || r.code() >= 300) {
            Object message = answer.startsWith("{") ? JsonMaps.MAPPER.readValue(answer, Map.class).get("message") : null;
            throw new IllegalStateException("the API server refused it (" + r.code() + "): "
                    + (message != null ? message : answer));
        }
        return JsonMaps.map(JsonMaps.MAPPER.readValue(answer, Map.class));
    }

    /** Closes the server side of every open watch. @return how many were closed */
    int dropWatches() {
        int n = 0;
        for (WebSocket ws : Set.copyOf(openWatches)) {
            openWatches.remove(ws);
            if (ws.close(1000, "watch dropped by the flowform embedded cluster")) {
                n++;
            }
        }
        return n;
    }

    @Override
    public void shutdown() {
        delegate.shutdown();
        offload.shutdown();
    }

    @Override
    public void releaseResources() {
        delegate.releaseResources();
    }

    /** Runs {@code r} off the event loop; a fresh daemon thread when the pool is already shut down. */
    private void offload(Runnable r) {
        try {
            offload.execute(r);
        } catch (RejectedExecutionException e) {
            Thread t = new Thread(r, "flowform-sim-watch-close");
            t.setDaemon(true);
            t.start();
        }
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        if (SIM_USER_AGENT.equals(request.getHeader("User-Agent"))) {
            return handle(request, true);
        }
        long start = System.nanoTime();
        try {
            return handle(request, false);
        } finally {
            clientNanos.addAndGet(System.nanoTime() - start);
        }
    }

    private MockResponse handle(RecordedRequest request, boolean internal) {
        requests.incrementAndGet();
        onRequest.run();
        HttpMethod method = request.method();
        if (!internal) {
            clientRequests.incrementAndGet();
            audit.add(ApiRequest.of(String.valueOf(method), request.getPath(), request.getHeader("User-Agent"),
                    request.getHeader("Authorization")));
        }
        boolean write = method == HttpMethod.POST || method == HttpMethod.PUT || method == HttpMethod.PATCH
                || method == HttpMethod.DELETE;
        String path = request.getPath() == null ? "" : request.getPath();
        String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        boolean dryRun = path.contains("dryRun=");
        SimFaults f = faults;
        if (!internal && f != null && write && method != HttpMethod.DELETE && !dryRun) {
            Matcher m = STRIMZI_WRITE_PATH.matcher(bare);
            if (m.matches()) {
                int status = f.takeWriteFailure();
                if (status != 0) {
                    return status(status, m.group(1), m.group(2));
                }
            }
        }
        KubectlCompat c = compat;
        MockResponse response;
        try {
            MockResponse answered = c == null ? null : c.answer(request);
            StrimziAdmission a = admission;
            if (answered == null && a != null) {
                answered = a.answer(request, internal);
                if (internal && answered != null && answered.code() >= 400) {
                    refusedSimulatorWrites.incrementAndGet();
                    // the simulated operator wrote what Strimzi's schema refuses: a simulator bug, never the user's
                    String refusal = answered.getBody() == null ? String.valueOf(answered.code())
                            : new String(answered.getBody().getBytes(), StandardCharsets.UTF_8);
                    LOG.warning(() -> "the API server refused the simulator's " + method + " " + bare + ": " + refusal);
                }
            }
            if (answered == null && c != null) {
                answered = c.refuseDryRun(request);
            }
            response = answered != null ? answered : delegate.dispatch(c == null ? request : c.normalise(request));
        } catch (RuntimeException e) {
            return statusResponse(422, "Invalid", "the mock API server could not handle " + method + " " + bare + ": " + e,
                    null, null);
        }
        if (response.getWebSocketListener() != null) {
            response.withWebSocketUpgrade(new TrackingListener(response.getWebSocketListener()));
        } else if (write && !dryRun && response.code() >= 200 && response.code() < 300) {
            if (bare.contains("/kafkamirrormaker2s")) {
                onMirrorMakerWrite.run();
            }
            onWrite.run();
        }
        return response;
    }

    private static MockResponse status(int code, String plural, String name) {
        String reason = ApiStatus.reason(code);
        String resource = plural + ".kafka.strimzi.io";
        String message = code == 409
                ? "Operation cannot be fulfilled on " + resource + " \"" + (name == null ? "" : name)
                        + "\": the object has been modified; please apply your changes to the latest version and try again"
                : "Internal error occurred: injected fault " + code + " (flowform embedded cluster)";
        return statusResponse(code, reason, message, name, plural);
    }

    private static MockResponse statusResponse(int code, String reason, String message, String name, String plural) {
        return ApiStatus.of(code, reason, message, plural == null ? null
                : ApiStatus.details(name, "kafka.strimzi.io", plural, java.util.List.of()));
    }

    /** Delegates every callback and remembers the socket while it is open. */
    private final class TrackingListener extends WebSocketListener {
        private final WebSocketListener inner;

        TrackingListener(WebSocketListener inner) {
            this.inner = inner;
        }

        @Override
        public void onBeforeAccept(WebSocket webSocket, Response response) {
            openWatches.add(webSocket);
            inner.onBeforeAccept(webSocket, response);
        }

        @Override
        public void onOpen(WebSocket webSocket, Response response) {
            inner.onOpen(webSocket, response);
        }

        @Override
        public void onMessage(WebSocket webSocket, String text) {
            inner.onMessage(webSocket, text);
        }

        @Override
        public void onMessage(WebSocket webSocket, byte[] bytes) {
            inner.onMessage(webSocket, bytes);
        }

        @Override
        public void onPing(WebSocket webSocket, byte[] bytes) {
            inner.onPing(webSocket, bytes);
        }

        @Override
        public void onClosing(WebSocket webSocket, int code, String reason) {
            inner.onClosing(webSocket, code, reason);
        }

        @Override
        public void onClosed(WebSocket webSocket, int code, String reason) {
            openWatches.remove(webSocket);
            offload(() -> inner.onClosed(webSocket, code, reason));
        }

        @Override
        public void onFailure(WebSocket webSocket, Throwable t, Response response) {
            openWatches.remove(webSocket);
            offload(() -> inner.onFailure(webSocket, t, response));
        }
    }
}
