import type { ChildProcess } from 'node:child_process';
import { Wakeup } from '../db/notifications';
import type { Logger } from '../logging';
import { sendSignal } from './process-info';

/** What `/readyz` shows of the embedded server. */
export interface EmbeddedServerStatus {
  /**
   * running: it answers (as far as its process goes); restarting: it died and is being started again;
   * stopped: the app stopped it; attached: another app process owns it and starts it again if it dies.
   */
  state: 'running' | 'restarting' | 'stopped' | 'attached';
  /** The postmaster's PID; null while none runs. */
  pid: number | null;
  /** Restarts after the server died, since this process started it. */
  restarts: number;
  /** How the last server ended unexpectedly, if one did. */
  lastExit: { at: string; code: number | null; signal: string | null } | null;
}

export interface SupervisorDeps {
  log: Logger;
  /** Clears what a dead server left (processes that outlived it, lock files) so that a new one can start. */
  clearLeftovers(): Promise<void>;
  /** Starts a server and resolves once it answers; gives up (and stops it) once `cancelled()` says so. */
  start(cancelled: () => boolean): Promise<ChildProcess>;
  /** Fast shutdown of a running server, escalating. */
  stopServer(pid: number): Promise<void>;
}

/** The first restart waits half a second, each failed attempt (or quick death) twice as long, at most 10 s. */
const FIRST_RESTART_DELAY_MS = 500;
const MAX_RESTART_DELAY_MS = 10_000;
/** A server that ran this long before it died is restarted after the first delay again. */
const STABLE_AFTER_MS = 30_000;

/**
 * Keeps the embedded server this process started running: when its postmaster exits without being asked
 * to (kill -9, the OOM killer, a crash), it clears what the dead server left and starts a new one, with
 * backoff, until one answers or the app stops it. Connections recover on their own once it is back (the
 * pools reconnect; LISTEN and advisory-lock holders reconnect themselves).
 */
export class ServerSupervisor {
  private child: ChildProcess;
  private startedAt = Date.now();
  private stopping = false;
  private restarting: Promise<void> | undefined;
  private restarts = 0;
  private quickFailures = 0;
  private lastExit: EmbeddedServerStatus['lastExit'] = null;
  private readonly pause = new Wakeup();

  constructor(
    child: ChildProcess,
    private readonly deps: SupervisorDeps,
  ) {
    this.child = this.watch(child);
  }

  /** The current postmaster's PID (it changes with every restart). */
  get pid(): number {
    return this.child.pid as number; // defined: a server we watch has answered
  }

  status(): EmbeddedServerStatus {
    const state = this.stopping ? 'stopped' : this.restarting ? 'restarting' : 'running';
    return {
      state,
      pid: isRunning(this.child) ? this.pid : null,
      restarts: this.restarts,
      lastExit: this.lastExit,
    };
  }

  /** Stops supervising (a restart under way gives up) and stops the server. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.pause.wake();
    await this.restarting;
    // If it already died, its PID may name another process by now: do not signal it.
    if (isRunning(this.child)) await this.deps.stopServer(this.pid);
  }

  /** For a process about to exit: no more restarts, and the server is asked for a fast shutdown. */
  abandon(): void {
    this.stopping = true;
    this.pause.wake();
    if (isRunning(this.child)) sendSignal(this.pid, 'SIGINT');
  }

  private watch(child: ChildProcess): ChildProcess {
    child.once('exit', (code, signal) => this.onExit(child, code, signal));
    return child;
  }

  private onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.stopping || child !== this.child) return;
    this.lastExit = { at: new Date().toISOString(), code, signal };
    if (Date.now() - this.startedAt >= STABLE_AFTER_MS) this.quickFailures = 0;
    this.deps.log.error(
      { postgresPid: child.pid, code, signal, restartInMs: this.nextDelay() },
      'embedded PostgreSQL exited unexpectedly; starting it again',
    );
    this.restarting = this.restart().finally(() => {
      this.restarting = undefined;
    });
  }

  private nextDelay(): number {
    return Math.min(FIRST_RESTART_DELAY_MS * 2 ** this.quickFailures, MAX_RESTART_DELAY_MS);
  }

  private async restart(): Promise<void> {
    const diedAt = Date.now();
    while (!this.stopping) {
      const delay = this.nextDelay();
      this.quickFailures++;
      await this.pause.sleep(delay);
      if (this.stopping) return;
      try {
        await this.deps.clearLeftovers();
        const child = await this.deps.start(() => this.stopping);
        this.child = this.watch(child);
        this.startedAt = Date.now();
        this.restarts++;
        this.deps.log.info(
          { postgresPid: child.pid, restarts: this.restarts, downMs: Date.now() - diedAt },
          'embedded PostgreSQL restarted',
        );
        return;
      } catch (error) {
        if (this.stopping) return;
        this.deps.log.error(
          { err: error, retryInMs: this.nextDelay() },
          'could not restart the embedded PostgreSQL; trying again',
        );
      }
    }
  }
}

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}
