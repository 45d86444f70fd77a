/**
 * Configuration: loading {@code *.flow.json} files, written in Terraform's JSON configuration
 * syntax, into a {@link dev.flowform.config.Configuration} for one environment; checking them
 * offline ({@link dev.flowform.config.ConfigLoader#validate}); and laying them out canonically
 * ({@link dev.flowform.config.syntax.Formatter}).
 *
 * <p>Entry point: {@link dev.flowform.config.ConfigLoader}. It is the only class that reads files
 * (the configuration folder, {@code --var-file} files and module folders, the latter through a
 * {@code ModuleReader}); everything else here is pure (an architecture test checks it). Nothing
 * throws for bad input: every problem is a {@link dev.flowform.diag.Diagnostic}, located at
 * {@code file:line:column} (1-based; columns count Unicode code points; file names relative to the
 * configuration folder, variable files as given) where it has a place in a file.
 *
 * <h2>Files and syntax</h2>
 * <p>Every {@code *.flow.json} file directly in the folder is read, in file name order, and their
 * blocks are merged. The syntax is the HCL JSON syntax that Terraform's {@code *.tf.json} files use
 * (hashicorp/hcl {@code json/spec.md}; developer.hashicorp.com/terraform/language/syntax/json):
 * <ul>
 *   <li>The root of a file is a JSON object whose properties are block types. Each label is one more
 *       nested object: {@code {"connect_cluster": {"eu": { ...body... }}}}. At any label level, and
 *       for the body, a JSON array of objects may replace the object (this preserves order and lets
 *       a name repeat). {@code locals} has no label.</li>
 *   <li>Property names may repeat in an object and keep their order (the spec requires parsers to
 *       accept this): a block type may appear several times in a file. Repeating an argument in one
 *       block body, a block name, or a key in an object value is an error.</li>
 *   <li>A property named {@code "//"} is a comment in a block body and at the root (and, since no
 *       block may be named {@code "//"}, at label levels). In an object <em>value</em> such as
 *       {@code config} it is an ordinary key (a warning says so).</li>
 *   <li>Plain RFC 8259 JSON otherwise: no comments, no trailing commas; numbers of any size are kept
 *       exactly; nesting is limited to {@value dev.flowform.config.syntax.JsonSourceParser#MAX_DEPTH} levels.</li>
 * </ul>
 *
 * <h2>Block types</h2>
 * <ul>
 *   <li>{@code variable "NAME"}: {@code type} ({@code string}, {@code number}, {@code bool},
 *       {@code any}, {@code list(T)}, {@code map(T)}, {@code object({name = T, ...})} with
 *       {@code optional(T)} attributes; {@code any} when omitted), {@code default},
 *       {@code description}, {@code sensitive} (bool), {@code nullable} (bool, default true: with
 *       false a null value takes the default, and is an error without one), {@code validation}
 *       (one block or a list of {@code {"condition": ..., "error_message": ...}}; the condition
 *       language is {@link dev.flowform.config.lang.ValidationExpression}'s and must refer to the variable). All
 *       literal: no references. The names {@code source}, {@code version}, {@code providers},
 *       {@code count}, {@code for_each}, {@code depends_on}, {@code lifecycle} and {@code locals}
 *       are reserved.</li>
 *   <li>{@code locals}: name to expression; several blocks merge; a name is defined once per module.</li>
 *   <li>{@code environment "NAME"} (root module only): {@code kubernetes} =
 *       {@code {"context": ..., "kubeconfig": ...}} or {@code {"embedded": {"seed": "./seed",
 *       "reconcile_delay_ms": n, "pod_ready_delay_ms": n, "strimzi_version": "0.48.0"}}} (the seed path is relative to the
 *       declaring file and must be an existing folder when the environment is used),
 *       {@code namespace} (required), {@code variables} (an object of root variable values),
 *       {@code expected_server}. All literal.</li>
 *   <li>{@code connect_cluster "NAME"} (a KafkaConnect): {@code namespace} (defaults to the
 *       environment's), {@code manage} ({@code own} default, {@code adopt}),
 *       {@code exactly_once_source_support} ({@code disabled}, {@code preparing}, {@code enabled}),
 *       {@code replicas}, {@code bootstrap_servers} (required with {@code own}), {@code version}
 *       (a string), {@code config} (scalars, rendered as strings: numbers without trailing zeros,
 *       bools as true/false), {@code spec} (raw JSON for the remaining KafkaConnect spec fields). A
 *       KafkaConnect name is declared once across all modules.</li>
 *   <li>{@code replication_flow "NAME"} (MirrorMaker 2 connectors): {@code name} (the Kubernetes
 *       name of its connectors, default the label), {@code manage}, {@code connect_cluster}
 *       (required; must name a declared connect_cluster, in any module), {@code source} and
 *       {@code target} ({@code alias}, {@code bootstrap_servers}, {@code config}; both required with
 *       their alias and bootstrap servers when {@code manage} is {@code own}), {@code topics},
 *       {@code topics_exclude}, {@code groups} (a string or a list of strings), {@code exactly_once},
 *       {@code isolation_level} ({@code read_committed}, {@code read_uncommitted}),
 *       {@code acknowledge_read_uncommitted}, {@code transaction_boundary} ({@code poll},
 *       {@code interval}), {@code tasks_max} (a positive whole number), {@code checkpoints},
 *       {@code heartbeats}, {@code config}, {@code connector_config} ({@code source},
 *       {@code checkpoint}, {@code heartbeat}: objects of scalars), {@code state} ({@code running},
 *       {@code paused}, {@code stopped}). The checks that need no cluster are listed on
 *       {@code ResourceDecoder}; two flows producing one KafkaConnector name are an error.</li>
 *   <li>{@code module "NAME"}: {@code source} (a literal folder path starting with {@code ./} or
 *       {@code ../}, relative to the declaring file) and one argument per variable of the module.
 *       Modules nest; a module whose folder is already being instantiated is a source cycle.
 *       Addresses of blocks inside are prefixed: {@code module.NAME.replication_flow.FLOW},
 *       {@code module.NAME.kafka_connector.CONNECTOR}.</li>
 *   <li>{@code output "NAME"}: {@code value} (any expression), {@code description},
 *       {@code sensitive}. An output whose value includes a sensitive value must say
 *       {@code sensitive = true}.</li>
 * </ul>
 * <p>connect_cluster and replication_flow names become Kubernetes names, so they must match
 * {@code [a-z0-9]([-a-z0-9]*[a-z0-9])?} and have at most 63 characters; variable, local, output,
 * module and environment names are identifiers. Unknown block types and arguments are errors with a
 * "Did you mean" hint.
 *
 * <h2>Expressions</h2>
 * <p>In {@code connect_cluster}, {@code replication_flow}, {@code locals}, {@code output} and
 * module arguments every string is a template:
 * <ul>
 *   <li>References: {@code var.NAME}, {@code local.NAME}, {@code module.CALL.OUTPUT} and
 *       {@code environment.name} / {@code environment.namespace} (the selected environment);
 *       further dotted names read object attributes ({@code var.kafka.bootstrap}).</li>
 *   <li>{@code "${var.name}"} as the whole string yields the value with its type (a number
 *       variable gives a number, a list variable a list).</li>
 *   <li>Inside a longer string the value is converted to a string and concatenated:
 *       {@code "${var.prefix}-orders"}. Lists, objects and null cannot be concatenated.</li>
 *   <li><code>$${</code> produces a literal <code>${</code>.</li>
 *   <li>Anything else inside {@code ${...}}, such as the Kafka config provider placeholders
 *       {@code ${secrets:ns/name:key}}, {@code ${cfmap:ns/cm:key}}, {@code ${file:/path:key}} or
 *       {@code ${strimzidir:...}}, passes through verbatim (a warning points out one that looks like a
 *       misspelt reference, e.g. {@code ${vars.x}}).</li>
 *   <li>Object keys are literal. A null value leaves the argument unset.</li>
 *   <li>Locals, outputs and module variables are computed when first needed, in any order; values
 *       that refer to each other in a cycle are an error naming the cycle.</li>
 * </ul>
 * <p>After evaluation each argument is converted to its type with Terraform's rules (a string that
 * spells a number is a number, {@code "true"} is a bool, numbers and bools become strings).
 *
 * <h2>Variables</h2>
 * <p>Root module values, lowest precedence first: the variable's {@code default}, the selected
 * environment's {@code variables}, {@code FLOWFORM_VAR_<name>} process environment variables,
 * {@code --var-file} files in the order given, then {@code --var name=value} (text converted to the
 * variable's type; lists, maps and objects are given as JSON). A child module's variables come from
 * the calling {@code module} block's arguments, else their defaults. A required variable without a
 * value, a {@code --var} or environment value for an undeclared variable, and a value that does not
 * fit the type are errors (an undeclared name in a variable file is a warning; an undeclared
 * {@code FLOWFORM_VAR_} is ignored). Values of {@code sensitive} variables, and of sensitive outputs,
 * are collected in {@link dev.flowform.config.Configuration#sensitiveValues()}, and the
 * configuration keys they flow into are listed in the blocks' {@code sensitiveKeys}.
 *
 * <h2>Environments</h2>
 * <p>The environment is chosen by name ({@code --env}); when none is given and exactly one is
 * declared, that one is used. {@code validate} checks every declared environment and merges the
 * diagnostics, naming the environments a problem occurs in when it does not occur in all.
 */
package dev.flowform.config;
