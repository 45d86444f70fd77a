package dev.flowform.cli;

import dev.flowform.config.ConfigLoader;
import dev.flowform.config.Configuration;
import dev.flowform.config.DesiredStateFactory;
import dev.flowform.config.KubernetesTarget;
import dev.flowform.diag.Diagnostics;
import dev.flowform.live.Fabric8ClusterReader;
import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredState;
import dev.flowform.model.LiveState;
import dev.flowform.model.SecretKeys;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanInputs;
import dev.flowform.plan.PlanOptions;
import dev.flowform.plan.RecordedResource;
import dev.flowform.plan.PlanRequest;
import dev.flowform.plan.Planner;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.EmbeddedClusterOptions;
import dev.flowform.sim.SimSettings;
import dev.flowform.state.ResourceSnapshot;
import dev.flowform.state.StateStore;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Everything a command needs for one environment: the loaded configuration, the desired state, a
 * Kubernetes client (the user's kubeconfig, or the embedded cluster started in-process), and the
 * environment's state database. Opening prints its own errors and throws {@link CommandFailed}.
 */
public final class Session implements AutoCloseable {

    /** File under the environment's state folder where the embedded cluster keeps its objects. */
    public static final String EMBEDDED_CLUSTER_FILE = "embedded-cluster.json";

    private final Configuration config;
    private final DesiredState desired;
    private final StateStore state;
    private final KubernetesClient client;
    private final EmbeddedCluster embedded;
    private final CliContext ctx;
    private final java.util.Map<String, String> sources;

    private Session(Configuration config, DesiredState desired, StateStore state, KubernetesClient client,
                    EmbeddedCluster embedded, CliContext ctx, java.util.Map<String, String> sources) {
        this.sources = sources;
        this.config = config;
        this.desired = desired;
        this.state = state;
        this.client = client;
        this.embedded = embedded;
        this.ctx = ctx;
    }

    /**
     * Loads the configuration, then opens the state and the cluster of the selected environment.
     *
     * @throws CommandFailed after printing diagnostics when the configuration is invalid or the cluster
     *                       cannot be configured
     */
    public static Session open(CommonOptions opts, CliContext ctx, Terminal term) {
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
        term.diagnostics(diags);
        if (diags.hasErrors()) {
            throw new CommandFailed(1);
        }
        String env = config.environment().name();
        StateStore state;
        try {
            state = StateStore.open(opts.stateDir(), env, ctx.clock());
        } catch (RuntimeException e) {
            term.error("Cannot open the state of environment \"" + env + "\"", String.valueOf(e.getMessage()));
            throw new CommandFailed(1);
        }
        EmbeddedCluster embedded = null;
        KubernetesClient client;
        try {
            KubernetesTarget target = config.environment().kubernetes();
            if (target instanceof KubernetesTarget.Embedded e) {
                embedded = startEmbedded(e, opts.stateDir().resolve(env), ctx);
                client = embedded.client();
            } else {
                client = kubeconfigClient((KubernetesTarget.Kubeconfig) target, ctx, term);
            }
        } catch (RuntimeException e) {
            state.close();
            if (e instanceof CommandFailed) {
                throw e;
            }
            term.error("Cannot start the cluster connection of environment \"" + env + "\"", String.valueOf(e.getMessage()));
            throw new CommandFailed(1);
        }
        return new Session(config, desired, state, client, embedded, ctx, loaded.sources());
    }

    private static EmbeddedCluster startEmbedded(KubernetesTarget.Embedded e, Path envStateDir, CliContext ctx) {
        SimSettings settings = ctx.simSettings();
        if (settings == null) {
            SimSettings demo = SimSettings.demo();
            settings = new SimSettings(
                    e.reconcileDelayMs() == null ? demo.reconcileDelay() : Duration.ofMillis(e.reconcileDelayMs()),
                    e.podReadyDelayMs() == null ? demo.podReadyDelay() : Duration.ofMillis(e.podReadyDelayMs()),
                    demo.connectorDelay(), demo.stuckTimeout());
        }
        try {
            Files.createDirectories(envStateDir);
        } catch (IOException ex) {
            throw new IllegalStateException("cannot create " + envStateDir + ": " + ex.getMessage(), ex);
        }
        return EmbeddedCluster.start(EmbeddedClusterOptions.builder()
                .persistFile(envStateDir.resolve(EMBEDDED_CLUSTER_FILE))
                .seedDir(e.seedDir())
                .settings(settings)
                .build());
    }

    private static KubernetesClient kubeconfigClient(KubernetesTarget.Kubeconfig k, CliContext ctx, Terminal term) {
        Config config;
        if (k.kubeconfig() != null) {
            Path path = Path.of(k.kubeconfig());
            String text;
            try {
                text = Files.readString(path);
            } catch (IOException e) {
                term.error("Cannot read kubeconfig", "The environment names kubeconfig \"" + path + "\", which cannot be read: "
                        + e.getMessage());
                throw new CommandFailed(1);
            }
            config = Config.fromKubeconfig(k.context(), text, path.toString());
        } else {
            boolean haveKubeconfig = ctx.env().get("KUBECONFIG") != null
                    || Files.exists(Path.of(System.getProperty("user.home"), ".kube", "config"))
                    || ctx.env().get("KUBERNETES_SERVICE_HOST") != null;
            if (!haveKubeconfig) {
                term.error("No Kubernetes cluster configured",
                        "The environment uses the kubeconfig, but neither $KUBECONFIG nor ~/.kube/config exists. Point "
                                + "KUBECONFIG at your cluster, or give the environment \"kubernetes\": {\"embedded\": "
                                + "{\"seed\": \"./seed\"}} to use the embedded demo cluster.");
                throw new CommandFailed(1);
            }
            config = Config.autoConfigure(k.context());
        }
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    /** @return the loaded configuration */
    public Configuration config() {
        return config;
    }

    /** @return the desired state */
    public DesiredState desired() {
        return desired;
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
            return new Fabric8ClusterReader(client).read(namespaces);
        } catch (KubernetesClientException e) {
            term.error("Cannot read the cluster", "Reading Strimzi resources from " + client.getMasterUrl() + " failed: "
                    + (e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage()));
            throw new CommandFailed(1);
        }
    }

    /** @return a plan of the desired state against {@code live}, based on the current state version, without flags */
    public Plan plan(LiveState live) {
        return plan(live, PlanOptions.DEFAULT);
    }

    /**
     * Plans the desired state against {@code live}, based on the current state version, with drift measured
     * against the state's resource snapshots.
     *
     * @param live    the live objects
     * @param options the user's planning flags
     * @return the plan
     */
    public Plan plan(LiveState live, PlanOptions options) {
        return Planner.plan(desired, live, new PlanRequest(environment(), state.stateRef(), ctx.clock().instant(), options,
                recorded(state), state::hashSecret));
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

    @Override
    public void close() {
        try {
            state.close();
        } finally {
            if (embedded != null) {
                embedded.close();
            } else {
                client.close();
            }
        }
    }
}
