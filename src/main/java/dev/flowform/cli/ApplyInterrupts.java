package dev.flowform.cli;

import dev.flowform.apply.StopSignal;
import dev.flowform.cli.view.ApplyView;
import dev.flowform.run.ApplyOperation;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What Ctrl-C and SIGTERM do to an apply, as in Terraform: the first stops it once the API call in flight is journaled
 * (while waiting for the lock or at the prompt it ends at once), a second ends the process; the leases and the lock
 * are released first. Exit 130 (SIGINT) or 143 (SIGTERM).
 */
final class ApplyInterrupts implements Interrupts.Handler {

    private final StopSignal stop;
    private final CommandLock lock;
    private final ApplyView view;
    private final AtomicInteger exit = new AtomicInteger();
    private final AtomicReference<ApplyOperation> operation = new AtomicReference<>();

    /** Handles the signals of an apply: {@code lock} is released before exiting at once, {@code view} prints notes. */
    ApplyInterrupts(StopSignal stop, CommandLock lock, ApplyView view) {
        this.stop = stop;
        this.lock = lock;
        this.view = view;
    }

    /** @param op the apply now running, whose cluster leases a second interrupt releases */
    void running(ApplyOperation op) {
        operation.set(op);
    }

    /** @return 130 or 143 after a signal, else {@code otherwise} */
    int exitCode(int otherwise) {
        int code = exit.get();
        return code != 0 ? code : otherwise;
    }

    @Override
    public void onSignal(String signal, int count) {
        int code = Interrupts.exitCode(signal);
        if (count == 1) {
            exit.set(code);
            stop.requestStop("interrupted by " + ("INT".equals(signal) ? "Ctrl-C (SIGINT)" : "SIGTERM"));
            if (lock.held() == null) {
                return; // still waiting for the state or its lock: that wait ends at once and says so
            }
            view.interruptReceived();
            if (view.awaitingApproval()) {
                releaseLeases();
                lock.release();
                view.cancelledAtApproval();
                System.exit(code);
            }
        } else if (lock.held() == null) {
            Runtime.getRuntime().halt(code); // a second signal while the first still ends the wait: nothing was changed
        } else {
            view.exitingAtOnce();
            releaseLeases();
            lock.release();
            Runtime.getRuntime().halt(code);
        }
    }

    private void releaseLeases() {
        ApplyOperation op = operation.get();
        if (op != null) {
            op.releaseLeases();
        }
    }
}
