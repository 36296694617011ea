package dev.tether.coven.internal;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Adds the credentials' headers to every call, asking the supplier anew per call so that SSH
 * credentials sign a fresh timestamp and nonce for each stream. Thread-safe.
 */
public final class HeaderInterceptor implements ClientInterceptor {
  private final Supplier<Map<String, String>> headers;

  public HeaderInterceptor(Supplier<Map<String, String>> headers) {
    this.headers = Objects.requireNonNull(headers, "headers");
  }

  @Override
  public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
    return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
      @Override
      public void start(Listener<R> listener, Metadata metadata) {
        headers.get().forEach((name, value) -> metadata.put(Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER), value));
        super.start(listener, metadata);
      }
    };
  }
}
