/**
 * {@link dev.tether.client.http.HttpTetherClient}: the {@link dev.tether.client.TetherClient} of a
 * remote tether host over its HTTP API, on a Unix domain socket or TCP with a bearer token, with
 * blob upload and download.
 */
module dev.tether.client.http {
  requires transitive dev.tether.client;
  requires com.fasterxml.jackson.databind;
  requires org.eclipse.jetty.client;

  exports dev.tether.client.http;
}
