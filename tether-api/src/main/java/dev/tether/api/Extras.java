package dev.tether.api;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** Copies maps of unmodelled JSON fields, keeping their order. */
final class Extras {
  private Extras() {}

  static Map<String, RawJson> copy(Map<String, RawJson> extra, String... modelled) {
    if (extra.isEmpty()) {
      return Map.of();
    }
    Map<String, RawJson> copy = new LinkedHashMap<>(extra.size());
    for (Map.Entry<String, RawJson> e : extra.entrySet()) {
      String name = Objects.requireNonNull(e.getKey(), "extra field name");
      for (String known : modelled) {
        if (known.equals(name)) {
          throw new IllegalArgumentException("extra field '" + name + "' is modelled; set it directly");
        }
      }
      copy.put(name, Objects.requireNonNull(e.getValue(), "extra field " + name));
    }
    return Collections.unmodifiableMap(copy);
  }
}
