package dev.tether.spring.boot;

import dev.tether.spring.boot.TetherProperties.ClientMode;
import dev.tether.spring.boot.TetherProperties.StoreType;
import java.util.Locale;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Conditions on {@code tether.store.type} and {@code tether.client.mode} that bind the value as
 * {@link TetherProperties} does (relaxed: {@code in-process}, {@code IN_PROCESS} and
 * {@code in_process} are one value), so a condition never disagrees with the bound properties.
 */
final class TetherConditions {
  private TetherConditions() {}

  /** Matches when the bound {@code key} equals {@code expected} (its default when unset). */
  abstract static class OnEnum<E extends Enum<E>> extends SpringBootCondition {
    private final String key;
    private final Class<E> type;
    private final E fallback;
    private final E expected;

    OnEnum(String key, Class<E> type, E fallback, E expected) {
      this.key = key;
      this.type = type;
      this.fallback = fallback;
      this.expected = expected;
    }

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
      E value = Binder.get(context.getEnvironment()).bind(key, type).orElse(fallback);
      String message = key + " is " + value.name().toLowerCase(Locale.ROOT);
      return value == expected ? ConditionOutcome.match(message) : ConditionOutcome.noMatch(message);
    }
  }

  static final class MemoryStore extends OnEnum<StoreType> {
    MemoryStore() {
      super("tether.store.type", StoreType.class, StoreType.MEMORY, StoreType.MEMORY);
    }
  }

  static final class SqliteStore extends OnEnum<StoreType> {
    SqliteStore() {
      super("tether.store.type", StoreType.class, StoreType.MEMORY, StoreType.SQLITE);
    }
  }

  static final class JetStreamStore extends OnEnum<StoreType> {
    JetStreamStore() {
      super("tether.store.type", StoreType.class, StoreType.MEMORY, StoreType.JETSTREAM);
    }
  }

  static final class InProcessClient extends OnEnum<ClientMode> {
    InProcessClient() {
      super("tether.client.mode", ClientMode.class, ClientMode.IN_PROCESS, ClientMode.IN_PROCESS);
    }
  }

  static final class HttpClient extends OnEnum<ClientMode> {
    HttpClient() {
      super("tether.client.mode", ClientMode.class, ClientMode.IN_PROCESS, ClientMode.HTTP);
    }
  }
}
