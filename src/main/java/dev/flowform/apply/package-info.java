/**
 * Executing a plan against the cluster: the {@link dev.flowform.apply.Applier} walks the steps in
 * order, journals each one before and after it acts, and waits for rolls and connectors with fabric8
 * informers (watches), never by sleeping and re-polling.
 *
 * <p>Ports: {@link dev.flowform.apply.ClusterWriter} (create / edit / delete objects),
 * {@link dev.flowform.apply.RolloutWatcher} (rule 7 and rule 8 waits), {@link dev.flowform.apply.Journal}
 * (the state database) and {@link dev.flowform.apply.ApplyListener} (progress for the terminal). The
 * fabric8 implementations live here too; the Applier itself only sees the ports.
 */
package dev.flowform.apply;
