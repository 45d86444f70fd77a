package dev.flowform.model;

/**
 * One task of a connector, from {@code status.connectorStatus.tasks[]}.
 *
 * @param id    task id, from 0
 * @param state {@code RUNNING}, {@code FAILED}, {@code PAUSED}, {@code UNASSIGNED}, {@code RESTARTING}, ...
 * @param trace the failure trace, or null
 */
public record TaskStatus(int id, String state, String trace) {
}
