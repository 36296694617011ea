package dev.tether.server.jetstream;

import dev.tether.server.SharedTokens;
import dev.tether.store.jetstream.JetStreamTokens;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * {@link SharedTokens} over {@link JetStreamTokens} (a KV bucket every host watches): the mapping
 * only, no state of its own. Thread-safe.
 */
final class JetStreamSharedTokens implements SharedTokens {
  private final JetStreamTokens tokens;

  JetStreamSharedTokens(JetStreamTokens tokens) {
    this.tokens = tokens;
  }

  @Override
  public void put(Token t) {
    tokens.put(new JetStreamTokens.Token(t.id(), t.sha256(), t.instance(), t.generation(), t.createdAt()));
  }

  @Override
  public boolean remove(String id) {
    return tokens.remove(id);
  }

  @Override
  public Optional<Token> get(String id) {
    return tokens.get(id).map(JetStreamSharedTokens::token);
  }

  @Override
  public Optional<Token> byHash(String sha256) {
    return tokens.byHash(sha256).map(JetStreamSharedTokens::token);
  }

  @Override
  public List<Token> list() {
    return tokens.list().stream().map(JetStreamSharedTokens::token).toList();
  }

  @Override
  public void onRemoved(Consumer<String> listener) {
    tokens.onRemoved(listener);
  }

  private static Token token(JetStreamTokens.Token t) {
    return new Token(t.id(), t.sha256(), t.instance(), t.generation(), t.createdAt());
  }
}
