package dev.tether.store.jetstream;

import dev.tether.store.jetstream.internal.FormingCluster;
import dev.tether.store.jetstream.internal.LoggingErrorListener;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;

/**
 * Opens the store's own NATS connection from the builder's settings: servers, credentials, token
 * and TLS; reconnects forever; checks that JetStream is enabled and waits (at most the open
 * timeout) for a forming cluster to answer. The connection is closed again when the store cannot
 * be made on it, so a failed {@code connect()} leaves nothing open.
 *
 * <p>Stateless: one static method, run on the caller's thread, blocking while it connects.
 */
final class NatsConnector {
  /** Makes the store on a connection that answers; may fail with the exceptions of {@code connect()}. */
  interface Opener<T> {
    T open(Connection nc) throws IOException;
  }

  private NatsConnector() {}

  /**
   * Connects to {@code servers} and returns what {@code opener} makes on the connection.
   *
   * @param credentials a NATS credentials file, or null
   * @param token a server authentication token, or null (copied before use)
   * @param sslContext TLS with this context, or null
   * @param tls TLS with the JVM's default context when {@code sslContext} is null
   * @throws IOException when no server can be reached, JetStream is not enabled or does not answer
   *     within {@code openTimeout}, or the opener fails
   */
  static <T> T connect(List<String> servers, String connectionName, Path credentials, char[] token,
      SSLContext sslContext, boolean tls, Duration openTimeout, Opener<T> opener) throws IOException {
    Options.Builder o = Options.builder()
        .servers(servers.toArray(String[]::new))
        .connectionName(connectionName)
        .maxReconnects(-1)
        .reconnectWait(Duration.ofMillis(250))
        .connectionTimeout(Duration.ofSeconds(5))
        .errorListener(new LoggingErrorListener());
    if (credentials != null) {
      o.credentialPath(credentials.toString());
    }
    if (token != null) {
      o.token(token.clone());
    }
    if (sslContext != null) {
      o.sslContext(sslContext);
    } else if (tls) {
      try {
        o.secure();
      } catch (NoSuchAlgorithmException e) {
        throw new IOException("no default TLS context: " + e.getMessage(), e);
      }
    }
    Connection nc;
    try {
      nc = Nats.connect(o.build());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while connecting to " + servers);
    }
    try {
      if (!nc.getServerInfo().isJetStreamAvailable()) {
        throw new IOException("JetStream is not enabled on the NATS server at " + nc.getConnectedUrl()
            + " (start nats-server with -js)");
      }
      // A forming cluster (a node just restarted, or all started together) may not answer yet.
      FormingCluster.retry("connecting to JetStream", openTimeout, () -> nc.jetStreamManagement().getAccountStatistics());
      return opener.open(nc);
    } catch (IOException | JetStreamApiException | RuntimeException e) {
      try {
        nc.close();
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
      }
      throw e instanceof IOException io ? io : new IOException("JetStream is not available at " + servers + ": " + e.getMessage(), e);
    }
  }
}
