package dev.flowform.arch;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The architecture of flowform as ArchUnit rules on compiled classes (docs/architecture.md, "Layers").
 *
 * <p>Layers, innermost first: the pure core ({@code diag}, {@code model}, {@code config} apart from
 * {@code ConfigLoader}, {@code plan}, {@code render}) &lt;- the edges ({@code live}, {@code apply}, {@code state},
 * {@code sim}, {@code kafka}, {@code connect}, {@code locking}, and {@code config.ConfigLoader}, the one class of {@code config} that
 * reads files)
 * &lt;- {@code run} (optional: the layer may be empty) &lt;- {@code cli}. A layer uses only the layers inside it.
 * The core does no I/O: no clock, randomness, sleeping, process environment, files or printing. Each rule is a
 * constant so that {@link CompiledArchitectureTest} checks it on the product and
 * {@link ArchitectureRulesCatchViolationsTest} on classes written to break it.
 */
final class ArchitectureRules {

    private static final String BASE = "dev.flowform";
    private static final String CONFIG_LOADER = BASE + ".config.ConfigLoader";

    private ArchitectureRules() {
    }

    /** {@code config.ConfigLoader} and its nested classes. */
    static final DescribedPredicate<JavaClass> CONFIG_LOADER_CLASSES = describe("config.ConfigLoader",
            c -> c.getName().equals(CONFIG_LOADER) || c.getName().startsWith(CONFIG_LOADER + "$"));

    /** The pure core. */
    static final DescribedPredicate<JavaClass> CORE = resideInAnyPackage(BASE + ".diag..", BASE + ".model..",
            BASE + ".config..", BASE + ".plan..", BASE + ".render..").and(not(CONFIG_LOADER_CLASSES))
            .as("the core (diag, model, config except ConfigLoader, plan, render)");

    /** The edges: Kubernetes, the state database, the embedded cluster, real Kafka, and the config files. */
    static final DescribedPredicate<JavaClass> EDGES = resideInAnyPackage(BASE + ".live..", BASE + ".apply..",
            BASE + ".state..", BASE + ".sim..", BASE + ".kafka..", BASE + ".connect..", BASE + ".locking..")
            .or(CONFIG_LOADER_CLASSES).as("the edges (live, apply, state, sim, kafka, connect, locking, config.ConfigLoader)");

    /** core &lt;- edges &lt;- run &lt;- cli; {@code run} may not exist yet. */
    static final ArchRule LAYERS = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("Core").definedBy(CORE)
            .layer("Edges").definedBy(EDGES)
            .optionalLayer("Run").definedBy(BASE + ".run..")
            .layer("Cli").definedBy(BASE + ".cli..")
            .whereLayer("Cli").mayNotBeAccessedByAnyLayer()
            .whereLayer("Run").mayOnlyBeAccessedByLayers("Cli")
            .whereLayer("Edges").mayOnlyBeAccessedByLayers("Run", "Cli")
            .whereLayer("Core").mayOnlyBeAccessedByLayers("Edges", "Run", "Cli")
            .because("the planning core is pure and the edges are reached only from the commands");

    /** picocli is the command line's business. */
    static final ArchRule PICOCLI_ONLY_IN_CLI = noClasses().that().resideOutsideOfPackage(BASE + ".cli..")
            .should().dependOnClassesThat().resideInAPackage("picocli..")
            .because("only the commands parse command lines");

    /**
     * Apache Kafka is not in flowform.jar: KafkaRuntimeLoader loads it from target/kafka/ together with the
     * {@code dev.flowform.kafka} classes, so a link from elsewhere would pass the tests and fail in the product.
     */
    static final ArchRule KAFKA_ONLY_IN_KAFKA = noClasses().that().resideOutsideOfPackage(BASE + ".kafka..")
            .should().dependOnClassesThat().resideInAnyPackage("org.apache.kafka..", BASE + ".kafka..")
            .because("Kafka and dev.flowform.kafka are loaded in a class loader of their own, only on demand");

    /**
     * The state database knows nothing of the applier: the applier's journal port ({@code apply.Journal}) is adapted
     * to the state in {@code run} ({@code run.StepJournal}), so neither edge depends on the other.
     */
    static final ArchRule STATE_KNOWS_NO_APPLY = noClasses().that().resideInAPackage(BASE + ".state..")
            .should().dependOnClassesThat().resideInAPackage(BASE + ".apply..")
            .because("the journal port is adapted to the state in run, not implemented by the state");

    /**
     * The real Connect runtime implements the port in {@code dev.flowform.connect}; the simulator is another
     * implementation of it, not something the real adapter builds on.
     */
    static final ArchRule KAFKA_KNOWS_NO_SIM = noClasses().that().resideInAPackage(BASE + ".kafka..")
            .should().dependOnClassesThat().resideInAPackage(BASE + ".sim..")
            .because("the real adapter and the simulator are two implementations of the connect port");

    /** The applier knows nothing of the state database (the other half of {@link #STATE_KNOWS_NO_APPLY}). */
    static final ArchRule APPLY_KNOWS_NO_STATE = noClasses().that().resideInAPackage(BASE + ".apply..")
            .should().dependOnClassesThat().resideInAPackage(BASE + ".state..")
            .because("the applier writes its journal through its own port");

    /** {@code locking} (the wait, the renewal, the pause) is shared by the edges, so it depends on none of them. */
    static final ArchRule LOCKING_STANDS_ALONE = noClasses().that().resideInAPackage(BASE + ".locking..")
            .should().dependOnClassesThat(resideInAnyPackage(BASE + "..").and(not(resideInAnyPackage(BASE + ".locking.."))))
            .because("the state lock and the cluster leases both use it");

    /**
     * The edges that wait for other holders, and the run layer, pause only through the injected
     * {@code locking.Sleeper}, so that tests record pauses and a stop request ends them.
     */
    static final ArchRule PAUSES_GO_THROUGH_THE_SLEEPER = noClasses()
            .that().resideInAnyPackage(BASE + ".state..", BASE + ".apply..", BASE + ".run..")
            .should().callCodeUnitWhere(describe("Thread.sleep or TimeUnit.sleep", call ->
                    (owner(call, Thread.class) || owner(call, TimeUnit.class)) && call.getTarget().getName().equals("sleep")))
            .because("every pause goes through the injected Sleeper");

    /** The rules on which edge may use which, checked on the product together. */
    static final List<ArchRule> EDGE_RULES = List.of(STATE_KNOWS_NO_APPLY, APPLY_KNOWS_NO_STATE, KAFKA_KNOWS_NO_SIM,
            LOCKING_STANDS_ALONE, PAUSES_GO_THROUGH_THE_SLEEPER);

    /** No cycles between the top-level packages. */
    static final ArchRule NO_PACKAGE_CYCLES = slices().matching(BASE + ".(*)..").namingSlices("$1")
            .should().beFreeOfCycles();

    /** The parts of {@code config}: the root package and its sub-packages {@code syntax}, {@code lang}, {@code module}. */
    private static final SliceAssignment CONFIG_PARTS = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String pkg = javaClass.getPackageName();
            String root = BASE + ".config";
            if (pkg.equals(root)) {
                return SliceIdentifier.of("config");
            }
            if (pkg.startsWith(root + ".")) {
                String rest = pkg.substring(root.length() + 1);
                int dot = rest.indexOf('.');
                return SliceIdentifier.of("config." + (dot < 0 ? rest : rest.substring(0, dot)));
            }
            return SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "the config package and each of its sub-packages";
        }
    };

    /** No cycles between config and its sub-packages (syntax &lt;- lang &lt;- module &lt;- config). */
    static final ArchRule NO_CONFIG_CYCLES = slices().assignedFrom(CONFIG_PARTS).should().beFreeOfCycles();

    /** The core reads no clock: time comes in as a value or through an injected {@link Clock}. */
    static final ArchRule CORE_READS_NO_CLOCK = noClasses().that(CORE).should().callCodeUnitWhere(describe(
            "reads the clock (Instant.now(), Clock.system*(), System.currentTimeMillis()/nanoTime(), *Date*/*Time.now())",
            ArchitectureRules::readsClock));

    /** The core draws no random numbers. */
    static final ArchRule CORE_IS_NOT_RANDOM = noClasses().that(CORE).should().dependOnClassesThat()
            .areAssignableTo(Random.class).orShould().dependOnClassesThat()
            .belongToAnyOf(SecureRandom.class, ThreadLocalRandom.class, SplittableRandom.class)
            .orShould().callMethod(UUID.class, "randomUUID")
            .orShould().callMethod(Math.class, "random")
            .orShould().callMethod(StrictMath.class, "random");

    /** The core never sleeps: waiting is the edges' job, through an injected sleeper. */
    static final ArchRule CORE_NEVER_SLEEPS = noClasses().that(CORE).should().callCodeUnitWhere(describe(
            "sleeps (Thread.sleep, TimeUnit#sleep)",
            call -> call.getTarget().getName().equals("sleep")
                    && (owner(call, Thread.class) || owner(call, TimeUnit.class))));

    /** The core reads neither process environment variables nor system properties. */
    static final ArchRule CORE_READS_NO_ENVIRONMENT = noClasses().that(CORE).should().callCodeUnitWhere(describe(
            "reads the process environment (System.getenv, System.getProperty, System.getProperties)",
            call -> owner(call, System.class) && Set.of("getenv", "getProperty", "getProperties")
                    .contains(call.getTarget().getName())));

    /** The core touches no files; config.ConfigLoader reads them and hands the bytes in. */
    static final ArchRule CORE_TOUCHES_NO_FILES = noClasses().that(CORE).should().dependOnClassesThat(describe(
                    "are java.io.File*, java.nio.file.Files or a file channel",
                    c -> c.isEquivalentTo(Files.class) || c.isEquivalentTo(FileChannel.class)
                            || c.isEquivalentTo(AsynchronousFileChannel.class) || (c.getPackageName().equals("java.io")
                            && (c.getSimpleName().startsWith("File") || c.getSimpleName().equals("RandomAccessFile")))))
            .orShould().callCodeUnitWhere(describe("resolves a path against the working directory "
                    + "(Path#toAbsolutePath, Path#toRealPath)", call -> owner(call, Path.class)
                    && Set.of("toAbsolutePath", "toRealPath").contains(call.getTarget().getName())));

    /** The core prints nothing: output is rendered to strings and written by the commands. */
    static final ArchRule CORE_PRINTS_NOTHING = noClasses().that(CORE).should().accessField(System.class, "out")
            .orShould().accessField(System.class, "err")
            .orShould().accessField(System.class, "in");

    /** The core uses no edge library: Kubernetes, JDBC, H2, Flyway, picocli, sockets. */
    static final ArchRule CORE_USES_NO_EDGE_LIBRARY = noClasses().that(CORE).should().dependOnClassesThat()
            .resideInAnyPackage("io.fabric8..", "java.sql..", "javax.sql..", "org.h2..", "org.flywaydb..", "picocli..",
                    "java.net..");

    /** Every purity rule of the core. */
    static final List<ArchRule> CORE_PURITY = List.of(CORE_READS_NO_CLOCK, CORE_IS_NOT_RANDOM, CORE_NEVER_SLEEPS,
            CORE_READS_NO_ENVIRONMENT, CORE_TOUCHES_NO_FILES, CORE_PRINTS_NOTHING, CORE_USES_NO_EDGE_LIBRARY);

    /** Two top-level classes with one simple name make every reader (and every import) check which is meant. */
    static final ArchRule UNIQUE_SIMPLE_NAMES = ArchRuleDefinition.classes()
            .that().areTopLevelClasses().and(not(describe("package-info", c -> c.getSimpleName().equals("package-info"))))
            .should(new ArchCondition<JavaClass>("have a simple name no other class has") {
                private final Map<String, Set<String>> byName = new TreeMap<>();

                @Override
                public void init(Collection<JavaClass> all) {
                    byName.clear();
                    all.forEach(c -> byName.computeIfAbsent(c.getSimpleName(), k -> new TreeSet<>()).add(c.getName()));
                }

                @Override
                public void check(JavaClass c, ConditionEvents events) {
                    Set<String> same = byName.getOrDefault(c.getSimpleName(), Set.of());
                    if (same.size() > 1) {
                        events.add(SimpleConditionEvent.violated(c, c.getName() + " shares its simple name with "
                                + String.join(", ", same.stream().filter(n -> !n.equals(c.getName())).toList())));
                    }
                }
            });

    private static boolean owner(JavaCall<?> call, Class<?> type) {
        return call.getTarget().getOwner().isEquivalentTo(type);
    }

    private static boolean readsClock(JavaCall<?> call) {
        String name = call.getTarget().getName();
        List<JavaClass> params = call.getTarget().getRawParameterTypes();
        if (owner(call, System.class)) {
            return name.equals("currentTimeMillis") || name.equals("nanoTime");
        }
        if (owner(call, Clock.class)) {
            return name.startsWith("system");
        }
        boolean dateOrTime = owner(call, Instant.class) || owner(call, LocalDate.class) || owner(call, LocalDateTime.class)
                || owner(call, LocalTime.class) || owner(call, ZonedDateTime.class) || owner(call, OffsetDateTime.class);
        return dateOrTime && name.equals("now") && (params.isEmpty() || params.get(0).isEquivalentTo(ZoneId.class));
    }
}
