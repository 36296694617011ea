package dev.tether.server;

import dev.tether.api.ErrorCode;
import java.util.List;

/** {@link ServerListener#all}: tells each listener in order; one that throws is skipped. Immutable. */
final class AllListeners implements ServerListener {
  private final List<ServerListener> listeners;

  AllListeners(List<ServerListener> listeners) {
    this.listeners = List.copyOf(listeners);
  }

  @Override
  public void requested(String route, String method, int status, long nanos) {
    for (ServerListener l : listeners) {
      try {
        l.requested(route, method, status, nanos);
      } catch (RuntimeException e) {
        // one faulty listener must not silence the others
      }
    }
  }

  @Override
  public void frameRefused(String instance, ErrorCode code) {
    for (ServerListener l : listeners) {
      try {
        l.frameRefused(instance, code);
      } catch (RuntimeException e) {
        // as above
      }
    }
  }

  @Override
  public void audited(AuditEvent event) {
    for (ServerListener l : listeners) {
      try {
        l.audited(event);
      } catch (RuntimeException e) {
        // as above
      }
    }
  }

  @Override
  public String toString() {
    return "ServerListener.all" + listeners;
  }
}
