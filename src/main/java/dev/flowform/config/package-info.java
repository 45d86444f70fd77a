/**
 * Configuration: loading {@code *.flow.json} files, written in Terraform's JSON configuration
 * syntax, into a {@link dev.flowform.config.Configuration} for one environment.
 *
 * <p>Entry point: {@link dev.flowform.config.ConfigLoader#load}. It is the only class that reads
 * files; everything else here is pure. Nothing throws for bad input: every problem is a
 * {@link dev.flowform.diag.Diagnostic}, located at {@code file:line:column} (1-based; columns count
 * Unicode code points; file names relative to the configuration folder) where it has a place in a file.
 *
 * <h2>Files and syntax</h2>
 * <p>Every {@code *.flow.json} file directly in the folder is read, in file name order, and their
 * blocks are merged. The syntax is the HCL JSON syntax that Terraform's {@code *.tf.json} files use
 * (hashicorp/hcl {@code json/spec.md}; developer.hashicorp.com/terraform/language/syntax/json):
 * <ul>
 *   <li>The root of a file is a JSON object whose properties are block types. Each label is one more
 *       nested object: {@code {"connect_cluster": {"eu": { ...body... }}}}. At any label level, and
 *       for the body, a JSON array of objects may replace the object (this preserves order and lets
 *       a name repeat).</li>
 *   <li>Property names may repeat in an object and keep their order (the spec requires parsers to
 *       accept this): a block type may appear several times in a file. Repeating an argument in one
 *       block body, a block name, or a key in an object value is an error.</li>
 *   <li>A property named {@code "//"} is a comment in a block body and at the root (and, since no
 *       block may be named {@code "//"}, at label levels). In an object <em>value</em> such as
 *       {@code config} it is an ordinary key (a warning says so).</li>
 *   <li>Plain RFC 8259 JSON otherwise: no comments, no trailing commas; numbers of any size are kept
 *       exactly; nesting is limited to {@value dev.flowform.config.JsonSourceParser#MAX_DEPTH} levels.</li>
 * </ul>
 *
 * <h2>Block types</h2>
 * <ul>
 *   <li>{@code variable "NAME"}: {@code type} ({@code string}, {@code number}, {@code bool},
 *       {@code any}, {@code list(T)}, {@code map(T)}; {@code any} when omitted), {@code default},
 *       {@code description}, {@code sensitive} (bool). All literal: no references.</li>
 *   <li>{@code environment "NAME"}: {@code kubernetes} = {@code {"context": ..., "kubeconfig": ...}}
 *       or {@code {"embedded": {"seed": "./seed", "reconcile_delay_ms": n, "pod_ready_delay_ms": n}}}
 *       (the seed path is relative to the declaring file and must be an existing folder when the
 *       environment is used), {@code namespace}, {@code variables} (an object of variable values),
 *       {@code expected_server}. All literal: {@code ${var.x}} is an error here.</li>
 *   <li>{@code connect_cluster "NAME"} (a KafkaConnect): {@code namespace} (defaults to the
 *       environment's), {@code manage} ({@code own} default, {@code adopt}),
 *       {@code exactly_once_source_support} ({@code disabled}, {@code preparing}, {@code enabled}),
 *       {@code replicas}, {@code bootstrap_servers} (required with {@code own}), {@code version}
 *       (a string), {@code config} (scalars, rendered as strings: numbers without trailing zeros,
 *       bools as true/false), {@code spec} (raw JSON for the remaining KafkaConnect spec fields).</li>
 *   <li>{@code replication_flow "NAME"} (MirrorMaker 2 connectors): {@code manage},
 *       {@code connect_cluster} (required; must name a declared connect_cluster), {@code source} and
 *       {@code target} ({@code alias}, {@code bootstrap_servers}, {@code config}; both required with
 *       their alias and bootstrap servers when {@code manage} is {@code own}), {@code topics},
 *       {@code topics_exclude}, {@code groups} (a string or a list of strings), {@code exactly_once},
 *       {@code isolation_level} ({@code read_committed}, {@code read_uncommitted}),
 *       {@code transaction_boundary} ({@code poll}, {@code interval}, {@code connector}),
 *       {@code tasks_max} (a positive whole number), {@code checkpoints}, {@code heartbeats},
 *       {@code config}, {@code connector_config} ({@code source}, {@code checkpoint},
 *       {@code heartbeat}: objects of scalars), {@code state} ({@code running}, {@code paused},
 *       {@code stopped}).</li>
 * </ul>
 * <p>connect_cluster and replication_flow names become Kubernetes names, so they must match
 * {@code [a-z0-9]([-a-z0-9]*[a-z0-9])?} and have at most 63 characters; variable and environment names
 * are identifiers. Unknown block types and arguments are errors with a "Did you mean" hint.
 * {@code locals}, {@code module}, {@code output} and variable {@code validation} are reserved for a
 * later version and refused with a message saying so.
 *
 * <h2>Expressions</h2>
 * <p>In {@code connect_cluster} and {@code replication_flow} bodies every string is a template:
 * <ul>
 *   <li>{@code "${var.name}"} as the whole string yields the variable's value with its type (a
 *       number variable gives a number, a list variable a list).</li>
 *   <li>Inside a longer string the value is converted to a string and concatenated:
 *       {@code "${var.prefix}-orders"}. Lists, objects and null cannot be concatenated.</li>
 *   <li><code>$${</code> produces a literal <code>${</code>.</li>
 *   <li>Only {@code var}, {@code local}, {@code module} and {@code environment} are flowform's
 *       reference roots (only {@code var} works yet). Anything else inside {@code ${...}}, such as
 *       the Kafka config provider placeholders {@code ${secrets:ns/name:key}},
 *       {@code ${cfmap:ns/cm:key}}, {@code ${file:/path:key}} or {@code ${strimzidir:...}}, passes
 *       through verbatim.</li>
 *   <li>Object keys are literal. A null value leaves the argument unset.</li>
 * </ul>
 * <p>After evaluation each argument is converted to its type with Terraform's rules (a string that
 * spells a number is a number, {@code "true"} is a bool, numbers and bools become strings).
 *
 * <h2>Variables</h2>
 * <p>Value precedence, lowest first: the variable's {@code default}, the selected environment's
 * {@code variables}, then {@code --var name=value} (the text is converted to the variable's type;
 * lists and maps are given as JSON). A variable without a value from any source, a value for an
 * undeclared variable, and a value that does not fit the type are errors. Values of
 * {@code sensitive} variables are collected in {@link dev.flowform.config.Configuration#sensitiveValues()},
 * and the configuration keys they flow into are listed in the blocks' {@code sensitiveKeys}.
 *
 * <h2>Environments</h2>
 * <p>The environment is chosen by name ({@code --env}); when none is given and exactly one is
 * declared, that one is used.
 */
package dev.flowform.config;
