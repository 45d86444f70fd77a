package dev.flowform.sim;

import dev.flowform.connect.ConnectRuntime;
import dev.flowform.model.StrimziApi;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * An in-process Kubernetes API server with the Strimzi CRDs and a simulated Strimzi operator, the cluster tests,
 * benchmarks and the demo run against: fabric8's CRUD mock on 127.0.0.1 (HTTP or HTTPS), serving one Strimzi API
 * version, with kubectl's discovery, an audit of every request and Kafka Connect behind the worker pods. Objects come
 * from a persist file, written before each write is answered (as etcd makes a write durable first), or a seed
 * folder; a read-only cluster never writes the file and runs no operator (docs/architecture.md).
 */
public final class EmbeddedCluster implements AutoCloseable {
    /** Name of the cluster, user and context in {@link #writeKubeconfig(Path)}. */
    public static final String CONTEXT = "flowform-embedded";
    /** Format tag of the persist file. */
    static final String FORMAT = "flowform-sim/1";
    private static final Logger LOG = Logger.getLogger(EmbeddedCluster.class.getName());
    /** Strong reference: the mock logs every request at INFO, and an unreferenced logger's level may be lost. */
    private static final Logger MOCK_LOGGER = Logger.getLogger("io.fabric8.mockwebserver");

    /**
     * Strong reference: when the mock server's Vert.x shuts down, netty logs "Failed to submit a listener
     * notification task. Event loop shut down?" at SEVERE for listeners of already closed channels. Only that
     * exact message is filtered; everything else from that logger still shows.
     */
    private static final Logger NETTY_PROMISE_LOGGER = Logger.getLogger("io.netty.util.concurrent.DefaultPromise.rejectedExecution");

    static {
        MOCK_LOGGER.setLevel(Level.WARNING);
        NETTY_PROMISE_LOGGER.setFilter(r -> r.getMessage() == null
                || !r.getMessage().startsWith("Failed to submit a listener notification task"));
    }

    private final EmbeddedClusterOptions options;
    private final Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
    private final SimDispatcher dispatcher;
    private final SimFaults faults;
    private final OperatorMemory memory = new OperatorMemory();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Object persistLock = new Object();
    private volatile boolean persistEnabled;
    private KubernetesMockServer server;
    private MockWebServer webServer;
    private String url;
    private StrimziApi api;
    private KubernetesClient internalClient;
    private KubernetesClient client;
    private StrimziSimulator simulator;
    private ConnectRuntime runtime;

    private EmbeddedCluster(EmbeddedClusterOptions options) {
        this.options = options;
        IndexedCrudDispatcher crud = new IndexedCrudDispatcher();
        TolerantWatchListeners.install(crud);
        this.dispatcher = new SimDispatcher(crud);
        this.faults = new SimFaults(dispatcher::dropWatches);
        dispatcher.faults(faults);
    }

    /**
     * Starts a cluster: API server, CRDs, objects (persist file, else seed folder), simulator.
     *
     * @param options where the objects come from, which API version to serve and the simulator timing
     * @return the running cluster; close it to persist and stop
     * @throws IllegalArgumentException when the seed or persist file is invalid or its API version
     *                                  contradicts {@link EmbeddedClusterOptions#api()}
     * @throws UncheckedIOException     when a file cannot be read
     */
    public static EmbeddedCluster start(EmbeddedClusterOptions options) {
        EmbeddedCluster cluster = new EmbeddedCluster(options);
        try {
            cluster.boot();
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    private void boot() {
        List<Map<String, Object>> objects = List.of();
        StrimziApi detected = null;
        boolean fromPersistFile = options.persistFile() != null && Files.exists(options.persistFile());
        runtime = options.connectRuntime().get();
        if (fromPersistFile) {
            Map<String, Object> state = readPersistFile(options.persistFile());
            objects = JsonMaps.list(state.get("objects")).stream().map(JsonMaps::map).toList();
            String version = String.valueOf(state.get("strimziApi"));
            detected = StrimziApi.fromApiVersion("x/" + version);
            memory.load(JsonMaps.map(state.get("simulator")), runtime);
        } else if (options.seedDir() != null) {
            objects = ClusterStore.readSeedDir(options.seedDir());
            detected = ClusterStore.detectApi(objects);
        }
        if (options.api() != null && detected != null && options.api() != detected) {
            throw new IllegalArgumentException((fromPersistFile ? "persist file " + options.persistFile()
                    : "seed folder " + options.seedDir()) + " holds Strimzi " + detected.version()
                    + " objects but the cluster was asked to serve " + options.api().version());
        }
        api = options.api() != null ? options.api() : detected != null ? detected : StrimziApi.V1BETA2;
        if (!fromPersistFile && options.seedDir() != null) {
            try {
                ClusterStore.checkSchemas(objects, api);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("seed folder " + options.seedDir() + ": " + e.getMessage(), e);
            }
        }

        dispatcher.compat(new KubectlCompat(new KubeDiscovery(api), api, dispatcher.store()));
        dispatcher.admission(api);
        StrimziCrds.warmUp(api, objects.stream().map(o -> String.valueOf(o.get("kind"))).collect(Collectors.toSet()));
        webServer = new MockWebServer();
        server = new KubernetesMockServer(mockContext(), webServer, responses, dispatcher, options.https());
        dispatcher.onRequest(this::drainRecordedRequests);
        listen();
        url = (options.https() ? "https" : "http") + "://127.0.0.1:" + server.getPort() + "/";
        client = newClient(config());
        // straight into the store, before anyone connects: no client, no HTTP round trip per object
        for (Map<String, Object> crd : StrimziCrds.documents(api)) {
            dispatcher.write(HttpMethod.POST, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", CrdReads.stored(crd));
        }
        ClusterStore.load(objects, api, dispatcher::write);
        if (!(fromPersistFile && options.persistReadOnly())) {
            internalClient = new KubernetesClientBuilder().withKubernetesSerialization(JsonMaps.SERIALIZATION)
                    .withConfig(new ConfigBuilder(config()).withUserAgent(SimDispatcher.SIM_USER_AGENT)
                            .withWatchReconnectInterval(100).build()).build();
            simulator = new StrimziSimulator(internalClient, api, options.settings(), faults, memory, runtime);
            simulator.start(!fromPersistFile);
            dispatcher.onMirrorMakerWrite(simulator::mirrorMakerWritten);
        }

        if (options.persistFile() != null && !options.persistReadOnly()) {
            persistEnabled = true;
            persist();
        } else if (options.persistFile() != null && !fromPersistFile) {
            createPersistFileIfAbsent();
        }
        dispatcher.onWrite(this::persistAfterWrite);
    }

    /** Starts the API server on 127.0.0.1 at the options' port (any free one for 0). */
    private void listen() {
        try {
            server.init(InetAddress.getByName("127.0.0.1"), options.port());
        } catch (UnknownHostException e) {
            throw new IllegalStateException("127.0.0.1 does not resolve", e);
        } catch (RuntimeException e) {
            if (options.port() == 0) {
                throw e;
            }
            throw new IllegalStateException("cannot serve on 127.0.0.1:" + options.port() + ": " + e.getMessage()
                    + " (is another process using that port?)", e);
        }
    }

    /**
     * @return a fresh client configuration for this cluster (master URL, token, HTTP/1.1), to build clients
     *         with other settings, e.g. {@code new ConfigBuilder(cluster.config()).withRequestRetryBackoffLimit(0)}
     */
    public Config config() {
        return new ConfigBuilder(Config.empty())
                .withMasterUrl(url)
                .withOauthToken(CONTEXT)
                .withNamespace("default")
                .withTrustCerts(true)
                .withHttp2Disable(true)
                .build();
    }

    /**
     * Builds an extra client for this cluster, e.g. with other retry settings; the caller closes it.
     *
     * @param clientConfig usually derived from {@link #config()}
     * @return a new client
     */
    public KubernetesClient newClient(Config clientConfig) {
        return new KubernetesClientBuilder().withKubernetesSerialization(JsonMaps.SERIALIZATION).withConfig(clientConfig).build();
    }

    /** @return a client for this cluster, owned by the cluster (do not close it) */
    public KubernetesClient client() {
        return client;
    }

    /**
     * @return the PEM file of the self-signed certificate an {@link EmbeddedClusterOptions#https() HTTPS} cluster
     *         serves (its own CA: a client trusts it as a pod trusts {@code ca.crt}), or null for plain HTTP
     */
    public Path certificateFile() {
        return options.https() ? Path.of(webServer.getSelfSignedCertificate().certificatePath()) : null;
    }

    /** @return the master URL, {@code http://127.0.0.1:<port>/} (https for an HTTPS cluster) */
    public String url() {
        return url;
    }

    /** @return the Strimzi API version this cluster serves */
    public StrimziApi api() {
        return api;
    }

    /** @return the simulated Strimzi operator, or null for a read-only cluster loaded from its persist file */
    public StrimziSimulator simulator() {
        return simulator;
    }

    /** @return the fault switches */
    public SimFaults faults() {
        return faults;
    }

    /** @return HTTP requests the server has served since start, from every client (the simulator's included) */
    public long requestCount() {
        return dispatcher.requestCount();
    }

    /** @return HTTP requests from clients other than the simulator's own (what flowform and tests sent) */
    public long clientRequestCount() {
        return dispatcher.clientRequestCount();
    }

    /**
     * @return nanoseconds the server spent handling the requests {@link #clientRequestCount()} counts (finding,
     *         storing and composing answers; sending them is not included)
     */
    public long clientRequestNanos() {
        return dispatcher.clientRequestNanos();
    }

    /**
     * @return writes of the simulated operator that Strimzi's schemas refused since start (pruned fields count: the
     *         simulator is held to {@code fieldValidation=Strict}); anything but 0 is a simulator bug, logged as a warning
     */
    public long refusedSimulatorWrites() {
        return dispatcher.refusedSimulatorWrites();
    }

    /** @return every request clients other than the simulator sent, as Kubernetes authorization sees it */
    public ApiAudit audit() {
        return dispatcher.audit();
    }

    /** @return watch WebSockets open right now (informers and watches of every client) */
    public int openWatchCount() {
        return dispatcher.openWatchCount();
    }

    /**
     * Writes the persist file now (atomically: temporary file in the same folder, then a rename). Does nothing
     * when the cluster has no persist file or only reads it. Reads the objects straight from the API
     * server's store, so it may run on any thread, the server's own included.
     *
     * @throws UncheckedIOException when the file cannot be written
     */
    public void persist() {
        if (options.persistFile() == null || !persistEnabled) {
            return;
        }
        synchronized (persistLock) {
            writeAtomically(options.persistFile(), persistedState());
        }
    }

    /** @return the persist file's content: the format, the served API, every object and the operator's memory */
    private byte[] persistedState() {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("format", FORMAT);
        state.put("strimziApi", api.version());
        state.put("objects", ClusterStore.dump(api, dispatcher::list));
        state.put("simulator", memory.toJson(runtime));
        return JsonMaps.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(state);
    }

    /**
     * For a read-only cluster seeded because its file did not exist yet: writes the seeded objects once, so
     * later commands start from the same objects, but only if the file is still absent (a hard link, which
     * fails rather than replace a file a writer created meanwhile).
     */
    private void createPersistFileIfAbsent() {
        Path file = options.persistFile().toAbsolutePath();
        try {
            Files.createDirectories(file.getParent());
            Path tmp = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
            try {
                Files.write(tmp, persistedState());
                Files.createLink(file, tmp);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (java.nio.file.FileAlreadyExistsException e) {
            // a writer created it first: its content wins
        } catch (IOException | RuntimeException e) {
            // best effort; RuntimeException covers file systems without hard links
            LOG.log(Level.FINE, "could not create the persist file " + file, e);
        }
    }

    /**
     * Writes a kubeconfig (cluster, token user and context all named {@value #CONTEXT}, plain HTTP) so another
     * process can connect, e.g. {@code KUBECONFIG=<file> flowform plan}.
     *
     * @param file where to write; parent folders are created
     * @return {@code file}
     * @throws UncheckedIOException when the file cannot be written
     */
    public Path writeKubeconfig(Path file) {
        String yaml = "apiVersion: v1\n"
                + "kind: Config\n"
                + "clusters:\n"
                + "- name: " + CONTEXT + "\n"
                + "  cluster:\n"
                + "    server: " + url.substring(0, url.length() - 1) + "\n"
                + "users:\n"
                + "- name: " + CONTEXT + "\n"
                + "  user:\n"
                + "    token: " + CONTEXT + "\n"
                + "contexts:\n"
                + "- name: " + CONTEXT + "\n"
                + "  context:\n"
                + "    cluster: " + CONTEXT + "\n"
                + "    user: " + CONTEXT + "\n"
                + "    namespace: default\n"
                + "current-context: " + CONTEXT + "\n"
                + "preferences: {}\n";
        writeAtomically(file, yaml.getBytes(StandardCharsets.UTF_8));
        return file;
    }

    /**
     * Stops the simulator, writes the persist file (if any), closes the Connect runtime and the clients and stops
     * the server.
     * Idempotent; a roll in progress is persisted as it stands and resumed by the next start.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        dispatcher.onWrite(() -> { });
        if (simulator != null) {
            simulator.close();
        }
        try {
            persist();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "could not write the persist file on close", e);
        }
        persistEnabled = false;
        if (runtime != null) {
            try {
                runtime.close();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "the Connect runtime did not stop cleanly", e);
            }
        }
        if (client != null) {
            client.close();
        }
        if (internalClient != null) {
            internalClient.close();
        }
        try {
            if (server != null) {
                server.destroy();
            }
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "mock server did not stop cleanly", e);
        }
    }

    /** The mock's own constructors build its context from fabric8's static mapper; so do we. */
    @SuppressWarnings("deprecation")
    private static io.fabric8.mockwebserver.Context mockContext() {
        return new io.fabric8.mockwebserver.Context(Serialization.jsonMapper());
    }

    /** Runs inside the API server's handling of a successful write, before the answer is sent. */
    private void persistAfterWrite() {
        if (!persistEnabled) {
            return;
        }
        try {
            persist();
        } catch (RuntimeException e) {
            if (!closed.get()) {
                LOG.log(Level.WARNING, "could not write the persist file " + options.persistFile(), e);
            }
        }
    }

    /** The mock keeps every request in an unbounded queue; drop them so a long demo does not grow without bound. */
    private void drainRecordedRequests() {
        if (webServer == null) {
            return;
        }
        try {
            while (webServer.takeRequest(0, TimeUnit.NANOSECONDS) != null) {
                // discard
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Map<String, Object> readPersistFile(Path file) {
        Map<String, Object> state;
        try {
            state = JsonMaps.map(JsonMaps.MAPPER.readValue(Files.readAllBytes(file), Map.class));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read persist file " + file, e);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("persist file " + file + " is not valid JSON: " + e.getMessage(), e);
        }
        if (state == null || !FORMAT.equals(state.get("format"))) {
            throw new IllegalArgumentException("persist file " + file + " is not a " + FORMAT + " file");
        }
        return state;
    }

    private static void writeAtomically(Path file, byte[] bytes) {
        try {
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
            try {
                Files.write(tmp, bytes);
                try {
                    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
