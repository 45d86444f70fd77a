package dev.flowform.cli;

import dev.flowform.config.ConfigLoader;
import dev.flowform.config.Configuration;
import dev.flowform.config.DesiredStateFactory;
import dev.flowform.config.KubernetesTarget;
import dev.flowform.diag.Diagnostic;
import dev.flowform.diag.Diagnostics;
import dev.flowform.live.Fabric8ClusterReader;
import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredState;
import dev.flowform.model.LiveState;
import dev.flowform.model.SecretKeys;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanInputs;
import dev.flowform.plan.PlanOptions;
import dev.flowform.plan.PlanRequest;
import dev.flowform.plan.Planner;
import dev.flowform.plan.RecordedResource;
import dev.flowform.plan.resume.Resume;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.EmbeddedClusterOptions;
import dev.flowform.sim.SimSettings;
import dev.flowform.state.ResourceSnapshot;
import dev.flowform.state.StateStore;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * Everything a command needs for one environment: the loaded configuration, the desired state, a
 * Kubernetes client (the user's kubeconfig, or the embedded cluster started in-process), and the
 * environment's state database. Opening prints its own errors and throws {@link CommandFailed}.
 *
 * <p>A command that writes state opens the session with a {@link StateLock}: the lock is taken right
 * after the state opens and before the cluster starts (so an embedded cluster, which lives in a file
 * under the state folder, is only ever run for writing by the lock holder), and released when the
 * session closes. Without a lock an embedded cluster is started read-only: it never writes its file.
 *
 * <p>Environment variable {@code FLOWFORM_SIM_FAST=1} makes embedded clusters run about five times
 * faster than the demo (reconcile after 50 ms, pods Ready after 150 ms, connectors after 50 ms); timings
 * set in the environment's {@code embedded} block still win. Tests use it to keep crash tests short.
 */
public final class Session implements AutoCloseable {

    /** File under the environment's state folder where the embedded cluster keeps its objects. */
    public static final String EMBEDDED_CLUSTER_FILE = "embedded-cluster.json";

    /** Environment variable that speeds up embedded clusters ({@code 1} to enable). */
    public static final String SIM_FAST_ENV = "FLOWFORM_SIM_FAST";

    /** What the recorded API server of an environment on the embedded cluster reads. */
    public static final String EMBEDDED_SERVER = "embedded";

    private final Configuration config;
    private final DesiredState desired;
    private final StateStore state;
    private final KubernetesClient client;
    private final EmbeddedCluster embedded;
    private final CliContext ctx;
    private final Terminal term;
    private final StateLock lock;
    private final java.util.Map<String, String> sources;
    private final String where;
    private final Path stateDir;
    private KubernetesClient writeClient;

    private Session(Configuration config, DesiredState desired, StateStore state, KubernetesClient client,
                    EmbeddedCluster embedded, CliContext ctx, Terminal term, StateLock lock,
                    java.util.Map<String, String> sources, String where, Path stateDir) {
        this.stateDir = stateDir;
        this.sources = sources;
        this.where = where;
        this.config = config;
        this.desired = desired;
        this.state = state;
        this.client = client;
        this.embedded = embedded;
        this.ctx = ctx;
        this.term = term;
        this.lock = lock;
    }

    /**
     * Loads the configuration, then opens the state and the cluster of the selected environment, for
     * a command that only reads.
     *
     * @throws CommandFailed after printing diagnostics when the configuration is invalid or the cluster
     *                       cannot be configured
     */
    public static Session open(CommonOptions opts, CliContext ctx, Terminal term) {
        return open(opts, ctx, term, null);
    }

    /**
     * Loads the configuration, opens the state, takes {@code lock} (when given), then opens the cluster.
     *
     * @param opts the common options
     * @param ctx  the process context
     * @param term where errors go
     * @param lock the state lock to take before the cluster is touched, or null for a read-only command
     * @return the session; closing it releases the lock
     * @throws CommandFailed after printing the error when the configuration is invalid, the lock is
     *                       held, or the cluster cannot be configured
     */
    static Session open(CommonOptions opts, CliContext ctx, Terminal term, StateLock lock) {
        dev.flowform.config.LoadResult loaded = new ConfigLoader().loadWith(opts.dir(), opts.environment,
                opts.variableInputs(ctx.env()));
        term.addSources(loaded.sources());
        if (loaded.configuration() != null) {
            term.addSecrets(loaded.configuration().sensitiveValues());
        }
        Diagnostics diags = new Diagnostics().addAll(loaded.diagnostics());
        if (diags.hasErrors() || loaded.configuration() == null) {
            term.diagnostics(diags);
            throw new CommandFailed(1);
        }
        Configuration config = loaded.configuration();
        DesiredState desired = DesiredStateFactory.build(config, diags);
        if (desired != null) {
            term.addSecrets(SecretValues.of(desired));
        }
        term.diagnostics(diags);
        if (diags.hasErrors()) {
            throw new CommandFailed(1);
        }
        String env = config.environment().name();
        Path stateDir = StateLocation.of(opts.stateDirOption(), config);
        KubernetesTarget target = config.environment().kubernetes();
        if (target instanceof KubernetesTarget.Embedded e && !e.kafka().isEmpty() && ctx.attachedCluster() == null) {
            term.error("Environment \"" + env + "\" runs on real Kafka",
                    "It declares embedded Kafka clusters (" + String.join(", ", e.kafka().stream()
                            .map(KubernetesTarget.EmbeddedKafka::alias).toList()) + "), which live only while one "
                            + "command runs. Run it with \"flowform prove --dir <folder> -e " + env + "\": it starts Kafka "
                            + "and the Connect workers, then plans and applies against them and checks the data.");
            throw new CommandFailed(1);
        }
        // A read-only command starts the embedded cluster (read-only) while the state opens: the two are
        // independent and each takes most of a second or more in a new JVM. A locking command must hold the
        // lock before the cluster may touch its file, so it starts the cluster afterwards.
        EarlyStart early = lock == null && ctx.attachedCluster() == null && target instanceof KubernetesTarget.Embedded e
                && validEnvironmentName(env)
                ? EarlyStart.begin(() -> startEmbedded(e, stateDir.resolve(env), ctx, true)) : null;
        StateStore state;
        try {
            List<String> select = CommandHint.selecting(opts, env);
            state = lock == null ? StateOpen.forReading(stateDir, env, ctx, term, select)
                    : StateOpen.forWriting(stateDir, env, ctx, term, select, "apply");
        } catch (CommandFailed e) {
            if (early != null) {
                early.discard();
            }
            throw e;
        } catch (RuntimeException e) {
            if (early != null) {
                early.discard();
            }
            term.error("Cannot open the state of environment \"" + env + "\"", String.valueOf(e.getMessage()));
            throw new CommandFailed(1);
        }
        if (lock != null) {
            try {
                lock.acquire(state);
            } catch (RuntimeException e) {
                state.close();
                throw e;
            }
        }
        EmbeddedCluster embedded = null;
        KubernetesClient client = null;
        String where;
        try {
            if (early != null) {
                embedded = early.join();
                client = embedded.client();
            } else if (target instanceof KubernetesTarget.Embedded && ctx.attachedCluster() != null) {
                embedded = ctx.attachedCluster();
                client = embedded.client();
            } else if (target instanceof KubernetesTarget.Embedded e) {
                embedded = startEmbedded(e, stateDir.resolve(env), ctx, lock == null);
                client = embedded.client();
            }
            if (embedded != null) {
                where = "the embedded cluster";
                announce(term, "Connecting to the embedded cluster (in-process), " + shownNamespaces(config, desired));
            } else {
                KubeconfigTarget kube = KubeconfigTarget.resolve((KubernetesTarget.Kubeconfig) target, env, ctx.env());
                term.addSecrets(SecretValues.of(kube.config()));
                String server = normalise(String.valueOf(kube.config().getMasterUrl()));
                where = server + (kube.context() == null ? "" : " (context \"" + kube.context() + "\")");
                announce(term, "Connecting to " + server + " (" + kube.describe() + "), " + shownNamespaces(config, desired));
                Optional<ConnectionFailure> failure = ConnectionFailure.probe(kube.config(), where);
                if (failure.isPresent()) {
                    connectionError(term, env, failure.get());
                    throw new CommandFailed(1);
                }
                client = new KubernetesClientBuilder().withConfig(kube.config()).build();
            }
        } catch (RuntimeException e) {
            if (client != null && embedded == null) {
                client.close();
            }
            if (lock != null) {
                lock.release();
            }
            state.close();
            if (e instanceof CommandFailed) {
                throw e;
            }
            if (e instanceof KubeconfigTarget.Unusable u) {
                connectionError(term, env, new ConnectionFailure(u.summary(), u.getMessage()));
                throw new CommandFailed(1);
            }
            term.error("Cannot start the cluster connection of environment \"" + env + "\"", String.valueOf(e.getMessage()));
            throw new CommandFailed(1);
        }
        return new Session(config, desired, state, client, embedded, ctx, term, lock, loaded.sources(), where, stateDir);
    }

    /**
     * Prints what a command connects to before it reads: on stderr, so stdout keeps only the plan; as a
     * {@code log} line in the JSON UI of {@code apply --json}.
     */
    private static void announce(Terminal term, String line) {
        if (term.isJson()) {
            term.note("info", line);
        } else {
            term.errorLine(line);
        }
    }

    /** Prints a connection failure as one error about the environment. */
    private static void connectionError(Terminal term, String env, ConnectionFailure failure) {
        term.diagnostics(List.of(Diagnostic.error(failure.summary(), failure.detail()).withAddress("environment." + env)));
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
    private static final class EarlyStart {
        private final CompletableFuture<EmbeddedCluster> future;

        private EarlyStart(CompletableFuture<EmbeddedCluster> future) {
            this.future = future;
        }

        static EarlyStart begin(Supplier<EmbeddedCluster> start) {
            return new EarlyStart(CompletableFuture.supplyAsync(start, task -> {
                Thread t = new Thread(task, "flowform-embedded-start");
                t.setDaemon(true);
                t.start();
            }));
        }

        /** @return the started cluster; what starting it threw is rethrown as it was */
        EmbeddedCluster join() {
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

        /** Closes the cluster once it has started (or ignores that it failed): the command fails for another reason. */
        void discard() {
            future.thenAccept(EmbeddedCluster::close);
        }
    }

    /** Demo-like timings about five times faster, for {@value #SIM_FAST_ENV}{@code =1}. */
    static SimSettings fastDemo() {
        return new SimSettings(Duration.ofMillis(50), Duration.ofMillis(150), Duration.ofMillis(50), Duration.ofSeconds(5));
    }

    /**
     * The simulated operator's timings for an embedded environment: the context's, else the demo's (five times
     * faster with {@value #SIM_FAST_ENV}{@code =1}) with the environment block's delays.
     *
     * @param e   the environment's embedded block
     * @param ctx the process context
     * @return the timings
     */
    static SimSettings embeddedSettings(KubernetesTarget.Embedded e, CliContext ctx) {
        if (ctx.simSettings() != null) {
            return ctx.simSettings();
        }
        SimSettings demo = "1".equals(ctx.env().get(SIM_FAST_ENV)) ? fastDemo() : SimSettings.demo();
        return new SimSettings(
                e.reconcileDelayMs() == null ? demo.reconcileDelay() : Duration.ofMillis(e.reconcileDelayMs()),
                e.podReadyDelayMs() == null ? demo.podReadyDelay() : Duration.ofMillis(e.podReadyDelayMs()),
                demo.connectorDelay(), demo.stuckTimeout());
    }

    private static EmbeddedCluster startEmbedded(KubernetesTarget.Embedded e, Path envStateDir, CliContext ctx,
                                                 boolean readOnly) {
        SimSettings settings = embeddedSettings(e, ctx);
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
                .build());
    }

    /** @return the loaded configuration */
    public Configuration config() {
        return config;
    }

    /** @return the desired state */
    public DesiredState desired() {
        return desired;
    }

    /** @return the state folder in use (absolute): {@code --state-dir}, the backend block's, or the default */
    public Path stateDir() {
        return stateDir;
    }

    /** @return the environment's state database */
    public StateStore state() {
        return state;
    }

    /** @return the Kubernetes client */
    public KubernetesClient client() {
        return client;
    }

    /** @return the environment name */
    public String environment() {
        return config.environment().name();
    }

    /**
     * Reads the live objects of every namespace the desired state touches.
     *
     * @throws CommandFailed after printing the error when the API server cannot be read
     */
    public LiveState readLive(Terminal term) {
        Set<String> namespaces = new TreeSet<>();
        for (DesiredConnectCluster c : desired.clusters()) {
            namespaces.add(c.namespace());
        }
        try {
            LiveState live = new Fabric8ClusterReader(client).read(namespaces);
            term.addSecrets(SecretValues.of(live));
            return live;
        } catch (KubernetesClientException e) {
            connectionError(term, environment(), ConnectionFailure.of(e, where));
            throw new CommandFailed(1);
        }
    }

    /** @return a plan of the desired state against {@code live} without flags, as {@link #plan(LiveState, PlanOptions)} */
    public Plan plan(LiveState live) {
        return plan(live, PlanOptions.DEFAULT);
    }

    /**
     * Plans for a read-only command: the desired state against {@code live}, based on the current state
     * version, with drift measured against the state's resource snapshots. When the last apply did not
     * finish, the plan continues it (see {@link Resume}) and says so, unless that apply is still running
     * in another process (then a warning says that instead). A cluster that is not the one this
     * environment was applied to makes the plan unappliable.
     *
     * @param live    the cluster now
     * @param options the user's planning flags
     * @return the plan
     */
    public Plan plan(LiveState live, PlanOptions options) {
        Optional<Resume.Analysis> resume = Optional.empty();
        Diagnostic running = null;
        Optional<ResumeSupport.Prior> prior = ResumeSupport.unfinished(state);
        if (prior.isPresent()) {
            Optional<Diagnostic> busy = ResumeSupport.inProgress(state, prior.get(), ctx.clock());
            if (busy.isPresent()) {
                running = busy.get();
            } else {
                resume = Optional.of(Resume.analyze(prior.get().run(), live, state::hashSecret));
            }
        }
        Plan plan = plan(live, options, resume);
        if (running == null) {
            return plan;
        }
        List<Diagnostic> diags = new ArrayList<>();
        diags.add(running);
        diags.addAll(plan.diagnostics());
        return plan.withDiagnostics(diags);
    }

    /**
     * Plans the desired state against {@code live}, continuing {@code resume} when given.
     *
     * @param live    the cluster now
     * @param options the user's planning flags
     * @param resume  what an unfinished prior run left, or empty
     * @return the plan, with an error diagnostic when the cluster identity check fails
     */
    Plan plan(LiveState live, PlanOptions options, Optional<Resume.Analysis> resume) {
        Plan fresh = Planner.plan(desired, live, new PlanRequest(environment(), state.stateRef(), ctx.clock().instant(), options,
                recorded(state), state::hashSecret));
        Plan plan = resume.map(a -> Resume.continuePlan(fresh, a, live)).orElse(fresh);
        Optional<Diagnostic> identity = identityProblem();
        if (identity.isEmpty()) {
            return plan;
        }
        List<Diagnostic> diags = new ArrayList<>(plan.diagnostics());
        diags.add(identity.get());
        return plan.withDiagnostics(diags);
    }

    /** @return the state's resource snapshots as the planner takes them */
    static List<RecordedResource> recorded(StateStore state) {
        List<RecordedResource> out = new ArrayList<>();
        for (ResourceSnapshot r : state.resources()) {
            @SuppressWarnings("unchecked")
            java.util.Map<String, Object> body = dev.flowform.plan.Json.MAPPER.readValue(r.bodyJson(), java.util.LinkedHashMap.class);
            out.add(new RecordedResource(r.address(), r.kind(), r.namespace(), r.name(), body, r.updatedSerial()));
        }
        return out;
    }

    /**
     * What a saved plan records about its inputs (Terraform keeps the configuration and variables in its plan
     * file): the configuration files with every sensitive value replaced by {@code (sensitive value)}, and the
     * {@code --var} values, those of sensitive variables flagged so the plan codec encrypts them.
     *
     * @param cliVars the {@code --var} values given
     * @return the inputs
     */
    public PlanInputs inputs(java.util.Map<String, String> cliVars) {
        java.util.Map<String, String> files = new java.util.TreeMap<>();
        List<String> secrets = config.sensitiveValues().stream().filter(v -> v != null && !v.isEmpty())
                .sorted(java.util.Comparator.comparingInt(String::length).reversed()).toList();
        sources.forEach((name, text) -> {
            String t = text;
            for (String v : secrets) {
                if (v.length() < 4 && t.contains(v)) {
                    t = "(omitted: the file holds a sensitive value too short to mask safely)";
                    break;
                }
                t = t.replace(v, SecretKeys.MASK);
            }
            files.put(name, t);
        });
        java.util.Map<String, PlanInputs.Variable> vars = new java.util.TreeMap<>();
        cliVars.forEach((k, v) -> vars.put(k, new PlanInputs.Variable(v, config.sensitiveValues().contains(v))));
        return new PlanInputs(files, vars);
    }

    /**
     * @return how the API server this session talks to is recorded for the identity guard: its URL
     *         without a trailing slash, or {@value #EMBEDDED_SERVER} for the embedded cluster (whose port
     *         changes with every start)
     */
    public String serverIdentity() {
        return embedded != null ? EMBEDDED_SERVER : normalise(String.valueOf(client.getMasterUrl()));
    }

    /** @return the namespaces the environment manages, comma-separated, for the identity record */
    String namespaces() {
        return String.join(",", managedNamespaces(config, desired));
    }

    private static Set<String> managedNamespaces(Configuration config, DesiredState desired) {
        Set<String> namespaces = new TreeSet<>();
        if (config.environment().namespace() != null) {
            namespaces.add(config.environment().namespace());
        }
        desired.clusters().forEach(c -> namespaces.add(c.namespace()));
        return namespaces;
    }

    /** @return the managed namespaces as the connection line shows them */
    private static String shownNamespaces(Configuration config, DesiredState desired) {
        List<String> quoted = managedNamespaces(config, desired).stream().map(n -> "\"" + n + "\"").toList();
        return quoted.isEmpty() ? "no namespace" : (quoted.size() == 1 ? "namespace " : "namespaces ") + String.join(", ", quoted);
    }

    /**
     * The cluster identity guard: an environment records the API server it was first applied to; a
     * run against another server is refused unless the environment's {@code expected_server} names the
     * new server (changed on purpose). An {@code expected_server} that differs from the server in use
     * is refused too.
     *
     * @return the error to refuse with, or empty when the server is the expected one
     */
    Optional<Diagnostic> identityProblem() {
        String current = serverIdentity();
        String expected = config.environment().expectedServer() == null ? null : normalise(config.environment().expectedServer());
        String env = environment();
        if (expected != null && !expected.equals(current)) {
            return Optional.of(Diagnostic.error("Cluster identity check failed",
                    "Environment \"" + env + "\" sets expected_server = \"" + expected + "\", but its Kubernetes "
                            + "configuration points at " + current + ". Nothing was changed. Check the kubeconfig context, "
                            + "or change expected_server if the environment really moved.").withAddress("environment." + env));
        }
        String recorded = state.environment().kubeServer();
        if (recorded != null && !normalise(recorded).equals(current) && expected == null) {
            String ns = state.environment().kubeNamespace();
            return Optional.of(Diagnostic.error("Cluster identity check failed",
                    "Environment \"" + env + "\" was applied to " + recorded + (ns == null || ns.isEmpty() ? "" : " (namespace "
                            + ns + ")") + ", but its Kubernetes configuration now points at " + current + ". flowform "
                            + "refuses to act on a different cluster with this environment's state. If the environment "
                            + "really moved, set \"expected_server\": \"" + current + "\" in environment \"" + env
                            + "\" on purpose.").withAddress("environment." + env));
        }
        return Optional.empty();
    }

    /** Records the server and namespaces this environment is being applied to, when they changed (serial +1). */
    void recordIdentity() {
        String current = serverIdentity();
        String namespaces = namespaces();
        dev.flowform.state.EnvironmentRecord e = state.environment();
        if (!current.equals(e.kubeServer()) || !namespaces.equals(e.kubeNamespace())) {
            state.setKubeServer(current, namespaces);
        }
    }

    private static String normalise(String url) {
        String u = url.trim();
        while (u.endsWith("/")) {
            u = u.substring(0, u.length() - 1);
        }
        return u;
    }

    /**
     * @return a client for writes: same cluster and credentials, but without fabric8's own retries, so
     *         that only {@link dev.flowform.apply.Fabric8ClusterWriter}'s typed retry policy applies
     */
    public synchronized KubernetesClient writeClient() {
        if (writeClient == null) {
            Config noRetry = new ConfigBuilder(client.getConfiguration()).withRequestRetryBackoffLimit(0).build();
            writeClient = embedded != null ? embedded.newClient(noRetry) : new KubernetesClientBuilder().withConfig(noRetry).build();
        }
        return writeClient;
    }

    /** @return the process context */
    CliContext context() {
        return ctx;
    }

    /**
     * Closes the cluster connection (an embedded cluster writes its file), then releases the lock, then
     * closes the state.
     */
    @Override
    public void close() {
        try {
            synchronized (this) {
                if (writeClient != null) {
                    writeClient.close();
                }
            }
            if (embedded != null) {
                if (embedded != ctx.attachedCluster()) {
                    embedded.close();
                }
            } else {
                client.close();
            }
        } finally {
            try {
                if (lock != null) {
                    lock.release();
                }
            } finally {
                state.close();
            }
        }
    }
}
