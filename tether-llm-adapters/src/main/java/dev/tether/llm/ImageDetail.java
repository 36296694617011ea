package dev.tether.llm;

import java.util.Locale;

/** OpenAI's {@code detail} setting for image inputs. */
public enum ImageDetail {
  AUTO,
  LOW,
  HIGH;

  /** The wire spelling: {@code auto}, {@code low} or {@code high}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
