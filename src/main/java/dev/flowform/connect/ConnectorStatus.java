package dev.flowform.connect;

import java.util.List;

/**
 * A connector's status as {@code GET /connectors/{name}/status} returns it.
 *
 * @param name      the connector name
 * @param state     the connector's state: {@code UNASSIGNED}, {@code RUNNING}, {@code PAUSED}, {@code STOPPED},
 *                  {@code FAILED} or {@code RESTARTING}
 * @param workerId  the worker running the connector ({@code host:port})
 * @param trace     the stack trace of a failure, or null
 * @param tasks     the tasks, by id
 * @param type      {@code source} or {@code sink}
 */
public record ConnectorStatus(String name, String state, String workerId, String trace, List<TaskStatus> tasks,
                              String type) {
    /** Copies {@code tasks}. */
    public ConnectorStatus {
        tasks = List.copyOf(tasks);
    }

    /**
     * One task of a connector.
     *
     * @param id       the task id, from 0
     * @param state    its state, as for the connector
     * @param workerId the worker running it
     * @param trace    the stack trace of a failure, or null
     */
    public record TaskStatus(int id, String state, String workerId, String trace) {
    }
}
