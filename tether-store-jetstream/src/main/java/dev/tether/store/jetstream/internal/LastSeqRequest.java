package dev.tether.store.jetstream.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.tether.api.json.TetherJson;
import io.nats.client.Connection;
import io.nats.client.Message;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The read barrier's one request, without a thread: the stream's last sequence from the JetStream
 * API ({@code STREAM.INFO}), answered on the NATS connection's thread. Reads only
 * {@code state.last_seq} of the answer; an API error, a status message (no responders) or a
 * timeout completes the future exceptionally. Stateless.
 */
public final class LastSeqRequest {
  private static final JsonFactory JSON = TetherJson.newFactory();

  private LastSeqRequest() {}

  /** The last sequence of {@code stream}, asked through {@code apiPrefix} (e.g. {@code $JS.API.}). */
  public static CompletableFuture<Long> send(Connection nc, String apiPrefix, String stream, Duration timeout) {
    try {
      return nc.requestWithTimeout(apiPrefix + "STREAM.INFO." + stream, null, timeout).thenApply(LastSeqRequest::lastSeq);
    } catch (RuntimeException e) { // closed connection, say
      return CompletableFuture.failedFuture(e);
    }
  }

  static long lastSeq(Message reply) {
    if (reply.isStatusMessage()) {
      throw new IllegalStateException("JetStream answered status " + reply.getStatus().getCode() + " " + reply.getStatus().getMessage());
    }
    try {
      return lastSeq(reply.getData());
    } catch (IOException e) {
      throw new IllegalStateException("unreadable STREAM.INFO answer: " + e.getMessage(), e);
    }
  }

  /**
   * {@code state.last_seq} of a STREAM.INFO answer, which must be one well-formed JSON object; an
   * answer with an {@code error} object, or without a non-negative integer there, fails.
   */
  static long lastSeq(byte[] json) throws IOException {
    long seq = -1;
    try (JsonParser p = JSON.createParser(json)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("not a JSON object");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        p.nextToken();
        if (name.equals("error")) {
          throw new IOException("JetStream API error: " + new String(json, StandardCharsets.UTF_8));
        }
        if (name.equals("state") && p.currentToken() == JsonToken.START_OBJECT) {
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            if (field.equals("last_seq") && p.currentToken() == JsonToken.VALUE_NUMBER_INT) {
              seq = p.getLongValue();
            }
            p.skipChildren();
          }
        } else {
          p.skipChildren();
        }
      }
      if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
        throw new IOException("not one JSON object");
      }
    }
    if (seq < 0) {
      throw new IOException("no non-negative state.last_seq in the STREAM.INFO answer");
    }
    return seq;
  }
}
