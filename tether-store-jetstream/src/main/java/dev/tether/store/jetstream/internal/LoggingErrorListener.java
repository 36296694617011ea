package dev.tether.store.jetstream.internal;

import io.nats.client.Connection;
import io.nats.client.Consumer;
import io.nats.client.ErrorListener;
import io.nats.client.JetStreamSubscription;
import java.lang.System.Logger.Level;

/**
 * Routes jnats connection events to {@link System.Logger} instead of its default logger: a dropped
 * connection while a node restarts is expected (DEBUG), a server error or a slow consumer is
 * worth a WARNING. Stateless.
 */
public final class LoggingErrorListener implements ErrorListener {
  private static final System.Logger LOG = System.getLogger("dev.tether.store.jetstream.nats");

  @Override
  public void errorOccurred(Connection conn, String error) {
    LOG.log(Level.WARNING, "NATS server error: {0}", error);
  }

  @Override
  public void exceptionOccurred(Connection conn, Exception exp) {
    LOG.log(Level.DEBUG, "NATS connection: {0}", String.valueOf(exp));
  }

  @Override
  public void slowConsumerDetected(Connection conn, Consumer consumer) {
    LOG.log(Level.WARNING, "NATS slow consumer: the store's delivery thread falls behind");
  }

  @Override
  public void heartbeatAlarm(Connection conn, JetStreamSubscription sub, long lastStreamSequence, long lastConsumerSequence) {
    LOG.log(Level.DEBUG, "NATS heartbeat missed after stream seq {0}; the ordered consumer resets", lastStreamSequence);
  }
}
