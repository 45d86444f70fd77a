package dev.flowform.run;

import dev.flowform.config.KubernetesTarget;
import dev.flowform.diag.Diagnostic;
import dev.flowform.live.Fabric8ClusterReader;
import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredState;
import dev.flowform.model.LiveState;
import dev.flowform.plan.rules.IdentityGuard;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.EmbeddedClusterOptions;
import dev.flowform.sim.SimSettings;
import dev.flowform.state.StateStore;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The Kubernetes API server of one environment: the user's kubeconfig (never guessed: {@link KubeconfigTarget}) or
 * the embedded cluster, started here or attached by {@code prove}, whose objects live in {@value #EMBEDDED_CLUSTER_FILE}
 * under the state folder and are written only by a command holding the state lock. {@value #SIM_FAST_ENV}{@code =1}
 * makes embedded clusters five times faster than the demo. Failures are reported to the {@link RunHooks}.
 */
public final class ClusterConnection implements AutoCloseable {

    /** File under the environment's state folder where the embedded cluster keeps its objects. */
    public static final String EMBEDDED_CLUSTER_FILE = "embedded-cluster.json";

    /** Environment variable that speeds up embedded clusters ({@code 1} to enable). */
    public static final String SIM_FAST_ENV = "FLOWFORM_SIM_FAST";

    /** What the recorded API server of an environment on the embedded cluster reads. */
    public static final String EMBEDDED_SERVER = "embedded";

    private final String environment;
    private final KubernetesClient client;
    private final EmbeddedCluster embedded;
    private final boolean attached;
    private final String where;
    private final Secrets secrets;
    private final RunHooks hooks;
    private KubernetesClient writeClient;

    private ClusterConnection(String environment, KubernetesClient client, EmbeddedCluster embedded, boolean attached,
                              String where, Secrets secrets, RunHooks hooks) {
        this.environment = environment;
        this.client = client;
        this.embedded = embedded;
        this.attached = attached;
        this.where = where;
        this.secrets = secrets;
        this.hooks = hooks;
    }

    /**
     * Refuses an environment that declares real Kafka clusters, unless {@code prove} attached them: they live
     * only while that one command runs.
     *
     * @throws OperationFailed after reporting it
     */
    static void refuseRealKafka(Workspace workspace, RunContext ctx, RunHooks hooks) {
        String env = workspace.environment();
        if (workspace.target() instanceof KubernetesTarget.Embedded e && !e.kafka().isEmpty() && ctx.attachedCluster() == null) {
            hooks.diagnostics(List.of(Diagnostic.error("Environment \"" + env + "\" runs on real Kafka",
                    "It declares embedded Kafka clusters (" + String.join(", ", e.kafka().stream()
                            .map(KubernetesTarget.EmbeddedKafka::alias).toList()) + "), which live only while one "
                            + "command runs. Run it with \"flowform prove --dir <folder> -e " + env + "\": it starts Kafka "
                            + "and the Connect workers, then plans and applies against them and checks the data.")));
            throw new OperationFailed();
        }
    }

    /**
     * Starts connecting on its own thread while the state opens: for a kubeconfig, resolving it, the first-contact
     * probe and the client; for a read-only command on the embedded cluster, starting it (a command taking the lock
     * starts that in {@link #open}, since it must hold the lock before the cluster touches its file).
     *
     * @param writes true for a command that takes the state lock
     * @return the connection being made, or null when there is nothing to start early
     */
    static Starting<?> startEarly(Workspace workspace, RunContext ctx, boolean writes) {
        if (workspace.target() instanceof KubernetesTarget.Kubeconfig k) {
            return Starting.begin("flowform-connect", () -> Remote.connect(k, workspace.environment(), ctx),
                    Remote::close);
        }
        if (writes || ctx.attachedCluster() != null || !(workspace.target() instanceof KubernetesTarget.Embedded e)
                || !validEnvironmentName(workspace.environment())) {
            return null;
        }
        Path envStateDir = workspace.stateDir().resolve(workspace.environment());
        return Starting.begin("flowform-embedded-start", () -> startEmbedded(e, envStateDir, ctx, true, 0),
                EmbeddedCluster::close);
    }

    /**
     * A kubeconfig's API server as first contact found it.
     *
     * @param kube    the resolved kubeconfig
     * @param where   the server and context, for messages
     * @param failure why the server cannot be used, or empty
     * @param client  the client for it, or null when it failed
     */
    record Remote(KubeconfigTarget kube, String where, Optional<ConnectionFailure> failure, KubernetesClient client) {
        /** Resolves the kubeconfig, builds the client and probes the server through it; the client is kept when it answers. */
        static Remote connect(KubernetesTarget.Kubeconfig target, String env, RunContext ctx) {
            KubeconfigTarget kube = KubeconfigTarget.resolve(target, env, ctx.env());
            String server = IdentityGuard.normalise(String.valueOf(kube.config().getMasterUrl()));
            String where = server + (kube.context() == null ? "" : " (context \"" + kube.context() + "\")");
            KubernetesClient client = new KubernetesClientBuilder().withConfig(kube.config()).build();
            Optional<ConnectionFailure> failure = ConnectionFailure.probe(client, where);
            if (failure.isPresent()) {
                client.close();
                client = null;
            }
            return new Remote(kube, where, failure, client);
        }

        void close() {
            if (client != null) {
                client.close();
            }
        }
    }

    /**
     * Connects to the environment's cluster and announces it ({@link RunHooks#connecting}).
     *
     * @param writes    true for a command holding the state lock (an embedded cluster may then write its file)
     * @param early     the embedded cluster {@link #startEarly} is starting, or null
     * @param secrets   where the kubeconfig's credentials go
     * @param hooks     where the connection line and errors go
     * @return the connection; close it
     * @throws OperationFailed after reporting that the API server does not answer as it should
     * @throws RuntimeException when the kubeconfig is unusable or the cluster cannot start; {@link #failed} reports it
     */
    static ClusterConnection open(Workspace workspace, RunContext ctx, boolean writes, Starting<?> early, Secrets secrets,
                                  RunHooks hooks) {
        KubernetesTarget target = workspace.target();
        String env = workspace.environment();
        Object started = early == null ? null : early.join();
        EmbeddedCluster embedded = null;
        if (started instanceof EmbeddedCluster e) {
            embedded = e;
        } else if (target instanceof KubernetesTarget.Embedded && ctx.attachedCluster() != null) {
            embedded = ctx.attachedCluster();
        } else if (target instanceof KubernetesTarget.Embedded e) {
            embedded = startEmbedded(e, workspace.stateDir().resolve(env), ctx, !writes, 0);
        }
        String namespaces = shown(workspace.managedNamespaces());
        if (embedded != null) {
            hooks.connecting("Connecting to the embedded cluster (in-process), " + namespaces);
            return new ClusterConnection(env, embedded.client(), embedded, embedded == ctx.attachedCluster(),
                    "the embedded cluster", secrets, hooks);
        }
        Remote remote = started instanceof Remote r ? r
                : Remote.connect((KubernetesTarget.Kubeconfig) target, env, ctx);
        secrets.addKubeconfig(remote.kube().config());
        hooks.connecting("Connecting to " + IdentityGuard.normalise(String.valueOf(remote.kube().config().getMasterUrl()))
                + " (" + remote.kube().describe() + "), " + namespaces);
        if (remote.failure().isPresent()) {
            hooks.diagnostics(List.of(remote.failure().get().diagnostic(env)));
            throw new OperationFailed();
        }
        return new ClusterConnection(env, remote.client(), null, false, remote.where(), secrets, hooks);
    }

    /**
     * Starts an environment's embedded cluster to serve other processes ({@code cluster serve}), with the seed,
     * timings and file its commands use; the caller holds the state lock meanwhile.
     *
     * @param workspace the environment's configuration
     * @param ctx       the process context (simulated-operator timings)
     * @param port      the port on 127.0.0.1 to serve on, e.g. {@link #defaultServePort}; 0 for any free one
     * @return the running cluster; the caller closes it, which saves its objects
     * @throws IllegalArgumentException when the environment is not on the embedded cluster
     * @throws IllegalStateException    when the port cannot be listened on (another process uses it)
     */
    public static EmbeddedCluster serve(Workspace workspace, RunContext ctx, int port) {
        Path envStateDir = servable(workspace);
        return startEmbedded((KubernetesTarget.Embedded) workspace.target(), envStateDir, ctx, false, port);
    }

    /** First port of the range {@link #defaultServePort} picks from: 20000, below Linux's ephemeral ports. */
    static final int SERVE_PORTS_FROM = 20_000;

    /** How many ports that range holds: 10,000 (20000-29999). */
    static final int SERVE_PORTS = 10_000;

    /**
     * The port {@code cluster serve} uses unless told otherwise: a hash of the environment's state folder into
     * {@value #SERVE_PORTS_FROM}-29999 (below Linux's ephemeral ports), so it stays the same across restarts.
     *
     * @param envStateDir the environment's state folder ({@link #servable})
     * @return the port
     */
    public static int defaultServePort(Path envStateDir) {
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(envStateDir.toAbsolutePath().normalize().toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return SERVE_PORTS_FROM + (int) (crc.getValue() % SERVE_PORTS);
    }

    /**
     * @param workspace the environment's configuration
     * @return the environment's state folder, which holds its embedded cluster's file
     * @throws IllegalArgumentException when the environment is not on the embedded cluster
     */
    public static Path servable(Workspace workspace) {
        if (!(workspace.target() instanceof KubernetesTarget.Embedded) || !validEnvironmentName(workspace.environment())) {
            throw new IllegalArgumentException("Environment \"" + workspace.environment() + "\" is not on the embedded "
                    + "cluster: only an environment with \"kubernetes\": {\"embedded\": {...}} can be served.");
        }
        return workspace.stateDir().resolve(workspace.environment());
    }

    /**
     * Reports why {@link #open} failed, once the caller closed what it had opened before.
     *
     * @return the exception to throw
     */
    static RuntimeException failed(RuntimeException e, String environment, RunHooks hooks) {
        if (e instanceof OperationFailed) {
            return e;
        }
        if (e instanceof KubeconfigTarget.Unusable u) {
            hooks.diagnostics(List.of(new ConnectionFailure(u.summary(), u.getMessage()).diagnostic(environment)));
        } else {
            hooks.diagnostics(List.of(Diagnostic.error("Cannot start the cluster connection of environment \"" + environment
                    + "\"", String.valueOf(e.getMessage()))));
        }
        return new OperationFailed();
    }

    /** @return the managed namespaces as the connection line shows them */
    private static String shown(Set<String> namespaces) {
        List<String> quoted = namespaces.stream().map(n -> "\"" + n + "\"").toList();
        return quoted.isEmpty() ? "no namespace" : (quoted.size() == 1 ? "namespace " : "namespaces ") + String.join(", ", quoted);
    }

    private static boolean validEnvironmentName(String env) {
        try {
            StateStore.validateEnvironmentName(env);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** An embedded cluster being started on its own (daemon) thread while the state opens. */
    static final class Starting<T> {
        private final CompletableFuture<T> future;
        private final Consumer<T> closer;

        private Starting(CompletableFuture<T> future, Consumer<T> closer) {
            this.future = future;
            this.closer = closer;
        }

        /**
         * @param thread the name of the thread that starts it
         * @param start  what starts it
         * @param closer what closes it when the command fails before using it
         */
        static <T> Starting<T> begin(String thread, Supplier<T> start, Consumer<T> closer) {
            return new Starting<>(CompletableFuture.supplyAsync(start, task -> {
                Thread t = new Thread(task, thread);
                t.setDaemon(true);
                t.start();
            }), closer);
        }

        /** @return what started; what starting it threw is rethrown as it was */
        T join() {
            try {
                return future.join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof RuntimeException r) {
                    throw r;
                }
                if (e.getCause() instanceof Error err) {
                    throw err;
                }
                throw e;
            }
        }

        /** Closes it once it has started (or ignores that it failed): the command fails for another reason. */
        void discard() {
            future.thenAccept(closer);
        }
    }

    /** Demo-like timings about five times faster, for {@value #SIM_FAST_ENV}{@code =1}. */
    static SimSettings fastDemo() {
        return new SimSettings(Duration.ofMillis(50), Duration.ofMillis(150), Duration.ofMillis(50), Duration.ofSeconds(5));
    }

    /**
     * The simulated operator's timings for an embedded environment: {@code override} when given, else the demo's
     * (five times faster with {@value #SIM_FAST_ENV}{@code =1}) with the environment block's delays; the block's
     * {@code strimzi_version} applies to both.
     *
     * @param e        the environment's embedded block
     * @param override timings that win over everything (tests), or null
     * @param env      the process environment
     * @return the timings
     */
    public static SimSettings embeddedSettings(KubernetesTarget.Embedded e, SimSettings override, Map<String, String> env) {
        if (override != null) {
            return e.strimziVersion() == null ? override : override.withStrimziVersion(e.strimziVersion());
        }
        SimSettings demo = "1".equals(env.get(SIM_FAST_ENV)) ? fastDemo() : SimSettings.demo();
        return new SimSettings(
                e.reconcileDelayMs() == null ? demo.reconcileDelay() : Duration.ofMillis(e.reconcileDelayMs()),
                e.podReadyDelayMs() == null ? demo.podReadyDelay() : Duration.ofMillis(e.podReadyDelayMs()),
                demo.connectorDelay(), demo.stuckTimeout(), e.strimziVersion());
    }

    private static EmbeddedCluster startEmbedded(KubernetesTarget.Embedded e, Path envStateDir, RunContext ctx,
                                                 boolean readOnly, int port) {
        SimSettings settings = embeddedSettings(e, ctx.simSettings(), ctx.env());
        try {
            Files.createDirectories(envStateDir);
        } catch (IOException ex) {
            throw new IllegalStateException("cannot create " + envStateDir + ": " + ex.getMessage(), ex);
        }
        return EmbeddedCluster.start(EmbeddedClusterOptions.builder()
                .persistFile(envStateDir.resolve(EMBEDDED_CLUSTER_FILE))
                .seedDir(e.seedDir())
                .settings(settings)
                .persistReadOnly(readOnly)
                .port(port)
                .build());
    }

    /**
     * Reads the live objects of every namespace the desired state's Connect clusters and KafkaMirrorMaker2s live in; their
     * secret values
     * are added to the {@link Secrets}.
     *
     * @param desired the desired state
     * @return the cluster now
     * @throws OperationFailed after reporting that the API server cannot be read
     */
    public LiveState readLive(DesiredState desired) {
        Set<String> namespaces = new TreeSet<>();
        for (DesiredConnectCluster c : desired.clusters()) {
            namespaces.add(c.namespace());
        }
        Set<String> mirrorMakerNamespaces = new TreeSet<>();
        desired.mirrorMakers().forEach(m -> mirrorMakerNamespaces.add(m.namespace()));
        return read(namespaces, mirrorMakerNamespaces);
    }

    /**
     * Reads every KafkaConnect (with its pods), KafkaConnector and KafkaMirrorMaker2 of one namespace, whatever the
     * configuration declares ({@code flowform import}); their secret values are added to the {@link Secrets}.
     *
     * @param namespace the namespace
     * @return what it holds
     * @throws OperationFailed after reporting that the API server cannot be read
     */
    public LiveState readNamespace(String namespace) {
        return read(Set.of(namespace), Set.of(namespace));
    }

    private LiveState read(Set<String> namespaces, Set<String> mirrorMakerNamespaces) {
        try {
            LiveState live = new Fabric8ClusterReader(client).read(namespaces, mirrorMakerNamespaces);
            secrets.addLive(live);
            return live;
        } catch (KubernetesClientException e) {
            hooks.diagnostics(List.of(ConnectionFailure.of(e, where).diagnostic(environment)));
            throw new OperationFailed();
        }
    }

    /** @return the client that reads (fabric8's default retries) */
    public KubernetesClient client() {
        return client;
    }

    /**
     * @return how the API server is recorded for the {@link IdentityGuard}: its URL without a trailing slash, or
     *         {@value #EMBEDDED_SERVER} for the embedded cluster in this process (whose port changes with every start)
     */
    public String serverIdentity() {
        return embedded != null ? EMBEDDED_SERVER : IdentityGuard.normalise(String.valueOf(client.getMasterUrl()));
    }

    /**
     * @return a client for writes: same cluster and credentials, but without fabric8's own retries, so that only
     *         {@link dev.flowform.apply.Fabric8ClusterWriter}'s typed retry policy applies
     */
    public synchronized KubernetesClient writeClient() {
        if (writeClient == null) {
            if (embedded != null) {
                writeClient = embedded.newClient(new ConfigBuilder(client.getConfiguration())
                        .withRequestRetryBackoffLimit(0).build());
            } else {
                // the same connections (one TLS set-up per command); fabric8 retries per the derived client's request config
                writeClient = client.newClient(new RequestConfigBuilder(client.getConfiguration().getRequestConfig())
                        .withRequestRetryBackoffLimit(0).build()).adapt(KubernetesClient.class);
            }
        }
        return writeClient;
    }

    /** Closes the clients; an embedded cluster started here stops and writes its file (an attached one keeps running). */
    @Override
    public void close() {
        synchronized (this) {
            if (writeClient != null) {
                writeClient.close();
            }
        }
        if (embedded != null) {
            if (!attached) {
                embedded.close();
            }
        } else {
            client.close();
        }
    }
}
