package dev.flowform.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * A subcommand of {@link FlowformCommand} on one environment, with what picocli injects into each: the root command,
 * the subcommand's spec and the common options.
 */
abstract class FlowformSubcommand {

    @ParentCommand
    FlowformCommand parent;

    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;
}
