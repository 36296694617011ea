package dev.tether.server;

/**
 * Starts or resumes whatever runs an instance's agent (a VM, a container, a process) when a frame
 * arrives for an instance nobody reads: the hook of the host-agent spec's wake-on-message. Set with
 * {@link TetherServer.Builder#waker}; {@code tether serve --wake-command} sets a
 * {@link CommandWaker}.
 *
 * <p>When the server calls it: a frame for the guest ({@code user.*} or {@code control.*}: the
 * agent's own frames never wake it) was accepted for {@code instance} (over HTTP or an in-process
 * client, such as the MCP tools), no reader is open on the instance (no long-poll, stream or
 * in-process poll in progress on this server), and none has been for the
 * {@link TetherServer.Builder#wakeIdle idle time}; when the last read was more recent, the server
 * waits until the idle time has passed and looks again (a read since the frame arrived cancels
 * the wake). Debounced: one call per idle spell. At most one call per instance runs at a time,
 * frames arriving meanwhile add none, and once an instance was woken it is woken again only after
 * a reader has come (and gone idle again), or, when none came (the wake did not bring its agent
 * up), no sooner than 60 s (or the idle time, if longer) after the last call began. Under {@code serve --nats} a server sees only its own readers and the frames posted
 * to it.
 *
 * <p>Threads: called on the server's own wake threads (at most four calls at once), never on a
 * request thread and never under the server's locks, so it may block (a wake that takes long only
 * delays the next wake of the same instance). An exception it throws is logged at WARNING and
 * ends that wake. On {@link TetherServer#close()} a call in progress is interrupted. Must be
 * thread-safe (different instances are woken concurrently). It should be idempotent: waking an
 * instance whose agent already runs (on another host, say) must do no harm.
 */
@FunctionalInterface
public interface InstanceWaker {
  /**
   * Wakes {@code instance} (a registered id: 1 to 128 letters, digits, {@code .}, {@code -} or
   * {@code _}).
   *
   * @throws Exception when the wake failed (logged at WARNING)
   */
  void wake(String instance) throws Exception;
}
