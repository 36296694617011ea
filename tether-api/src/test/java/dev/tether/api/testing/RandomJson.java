package dev.tether.api.testing;

import dev.tether.api.MediaType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;
import org.quicktheories.impl.Constraint;

/**
 * Generators of arbitrary JSON text, frame-shaped JSON, and byte-level mutations of it, for the
 * robustness properties. JSON is written by hand so that every escape form, odd numbers, deep
 * nesting and lone surrogates occur. {@link #gen} turns a recipe into a QuickTheories generator:
 * every random choice is then a QuickTheories draw, so a failing input shrinks (fewer fields,
 * shorter strings, earlier alternatives) and the reported seed reproduces it.
 *
 * <p>Published in tether-api's test-jar. Modules that can make real images (tether-images) pass a
 * source of small real images ({@code MediaType -> base64}) to {@link #gen(Function, Function)}:
 * real image data is then mixed into the image arrays and {@link #imageFrame} can be used; without
 * one, image data is only the hand-written odd strings. An instance is for one generator run on
 * one thread.
 */
public final class RandomJson {
  public static final List<String> TYPES = List.of("user.message", "assistant.delta", "assistant.done",
      "assistant.message", "status.presence", "control.cancel", "reasoning.delta", "event.ack", "error", "x.custom", "");
  public static final List<String> MEDIA_TYPES = List.of("image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp",
      "IMAGE/PNG", "");
  private static final List<String> ENVELOPE_NAMES = List.of("v", "type", "ts", "session", "msg_id", "seq", "payload",
      "ext", "trace");
  private static final List<String> PAYLOAD_NAMES = List.of("text", "images", "user", "state", "ref", "extra");
  private static final List<String> IMAGE_NAMES = List.of("media_type", "data", "ref", "size", "url");
  private static final List<String> TIMESTAMPS = List.of("2026-01-02T03:04:05Z", "2026-01-02T03:04:05.123456789+02:00",
      "2026-01-02t03:04:05z", "2026-01-02T03:04:05", "2026-02-30T00:00:00Z", "", "0", "-999999999-01-01T00:00:00Z",
      "+999999999-12-31T23:59:59-18:00", "0000-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00", "+10000-01-01T00:00:00Z");
  private static final List<String> ODD_DATA = List.of("iVBORw0KGgo=", "iVBORw0KGgo", "/9j/4AAQ", "R0lGODlh", "UklGRgAAAABXRUJQ",
      "data:image/png;base64,iVBORw0KGgo=", "AAAA", "A", "====", "iVBO Rw0K", "iVBORw0KGgo=A", "-_-_", "");

  private final Random random;
  /** Base64 of a small real image of each type, or null when there are no real images. */
  private final Function<MediaType, String> realImages;
  private final List<String> data;

  private RandomJson(Random random, Function<MediaType, String> realImages, List<String> data) {
    this.random = random;
    this.realImages = realImages;
    this.data = data;
  }

  /** A QuickTheories generator of the bytes {@code recipe} makes; failures show them as hex and text. */
  public static Gen<byte[]> gen(Function<RandomJson, byte[]> recipe) {
    Gen<byte[]> gen = in -> recipe.apply(new RandomJson(new DrawRandom(in), null, ODD_DATA));
    return gen.describedAs(RandomJson::describe);
  }

  /**
   * As {@link #gen(Function)}, with real images mixed in: {@code realImages} gives the standard
   * base64 of a small valid image of each media type.
   */
  public static Gen<byte[]> gen(Function<MediaType, String> realImages, Function<RandomJson, byte[]> recipe) {
    List<String> data = withRealData(realImages);
    Gen<byte[]> gen = in -> recipe.apply(new RandomJson(new DrawRandom(in), realImages, data));
    return gen.describedAs(RandomJson::describe);
  }

  /** A QuickTheories generator of what {@code recipe} makes, for values that are not bytes. */
  public static <T> Gen<T> genOf(Function<RandomJson, T> recipe) {
    return in -> recipe.apply(new RandomJson(new DrawRandom(in), null, ODD_DATA));
  }

  private static List<String> withRealData(Function<MediaType, String> realImages) {
    List<String> data = new ArrayList<>(ODD_DATA);
    data.addAll(List.of(realImages.apply(MediaType.PNG), realImages.apply(MediaType.JPEG),
        realImages.apply(MediaType.GIF), realImages.apply(MediaType.WEBP),
        unpadded(realImages.apply(MediaType.GIF)), realImages.apply(MediaType.PNG).replace("/", "\\/")));
    return List.copyOf(data);
  }

  /** Standard base64 without its '=' padding. */
  private static String unpadded(String base64) {
    int end = base64.length();
    while (end > 0 && base64.charAt(end - 1) == '=') {
      end--;
    }
    return base64.substring(0, end);
  }

  /** An input as hex and as UTF-8 text, for failure messages. */
  public static String describe(byte[] input) {
    return "(hex) " + HexFormat.of().formatHex(input) + "\n  as text: " + new String(input, StandardCharsets.UTF_8);
  }

  /**
   * A {@link Random} whose every choice is one draw from a QuickTheories source, bounded as
   * tightly as the call allows so that shrinking moves towards the first alternative and zero.
   * Valid only while its generator runs.
   */
  private static final class DrawRandom extends Random {
    private static final long serialVersionUID = 1L;
    private final transient RandomnessSource in;

    DrawRandom(RandomnessSource in) {
      super(0);
      this.in = in;
    }

    @Override
    protected int next(int bits) {
      return (int) in.next(Constraint.between(0, (1L << bits) - 1));
    }

    @Override
    public int nextInt(int bound) {
      if (bound <= 0) {
        throw new IllegalArgumentException("bound must be positive: " + bound);
      }
      return (int) in.next(Constraint.between(0, bound - 1));
    }

    @Override
    public int nextInt() {
      return (int) in.next(Constraint.between(Integer.MIN_VALUE, Integer.MAX_VALUE).withShrinkPoint(0));
    }

    @Override
    public long nextLong() {
      return in.next(Constraint.none());
    }

    @Override
    public boolean nextBoolean() {
      return in.next(Constraint.between(0, 1)) == 1;
    }

    @Override
    public double nextDouble() {
      return in.next(Constraint.between(0, (1L << 53) - 1)) * 0x1.0p-53;
    }
  }

  public <T> T pick(List<T> items) {
    return items.get(random.nextInt(items.size()));
  }

  /** Any JSON value, nested at most {@code depth} levels. */
  public String value(int depth) {
    StringBuilder sb = new StringBuilder();
    value(sb, depth);
    return sb.toString();
  }

  public void value(StringBuilder sb, int depth) {
    int kind = random.nextInt(depth <= 0 ? 5 : 7);
    switch (kind) {
      case 0 -> sb.append(pick(List.of("null", "true", "false")));
      case 1, 2 -> number(sb);
      case 3, 4 -> string(sb);
      case 5 -> {
        sb.append('[');
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
          if (i > 0) {
            sb.append(',');
          }
          space(sb);
          value(sb, depth - 1);
        }
        sb.append(']');
      }
      default -> {
        sb.append('{');
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
          if (i > 0) {
            sb.append(',');
          }
          quoted(sb, random.nextInt(3) == 0 ? pick(PAYLOAD_NAMES) : "k" + i);
          sb.append(':');
          space(sb);
          value(sb, depth - 1);
        }
        sb.append('}');
      }
    }
  }

  private void space(StringBuilder sb) {
    if (random.nextInt(4) == 0) {
      sb.append(pick(List.of(" ", "\n", "\t", "\r\n  ")));
    }
  }

  public void number(StringBuilder sb) {
    switch (random.nextInt(6)) {
      case 0 -> sb.append(random.nextInt(10));
      case 1 -> sb.append(random.nextLong());
      case 2 -> sb.append("123456789012345678901234567890");
      case 3 -> sb.append(random.nextDouble() * 1000);
      case 4 -> sb.append("-0.5e").append(random.nextInt(700) - 350);
      default -> sb.append(-random.nextInt(5));
    }
  }

  public void string(StringBuilder sb) {
    sb.append('"');
    int n = random.nextInt(12);
    for (int i = 0; i < n; i++) {
      if (random.nextInt(256) == 0) {
        sb.append(pick(SURROGATE_ESCAPES)); // rare: most strings must stay valid to reach deeper
        continue;
      }
      switch (random.nextInt(8)) {
        case 0 -> sb.append(pick(List.of("\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t")));
        case 1 -> sb.append(String.format("\\u%04x", random.nextInt(0x10000))); // lone surrogates included
        case 2 -> sb.append((char) (0xA0 + random.nextInt(0x2000)));
        case 3 -> sb.appendCodePoint(0x1F600 + random.nextInt(50));
        default -> sb.append((char) ('a' + random.nextInt(26)));
      }
    }
    sb.append('"');
  }

  public void quoted(StringBuilder sb, String s) {
    sb.append('"').append(s).append('"');
  }

  /** A frame-shaped object: mostly the right field names, values sometimes of the wrong kind. */
  /**
   * Surrogate escapes in every shape RFC 7493 cares about: a valid pair, and the unpaired forms
   * (lone high, lone low, high then a non-low escape, low then high).
   */
  public static final List<String> SURROGATE_ESCAPES = List.of("\\ud83d\\ude00", "\\uD83D\\uDE00", "\\ud800",
      "\\udfff", "\\ud800\\u0041", "\\ud800\\ud800", "\\udc00\\ud800", "\\\\ud800", "\\ud800x");

  public String frame() {
    StringBuilder sb = new StringBuilder("{");
    int n = 1 + random.nextInt(6);
    boolean first = true;
    boolean versioned = random.nextInt(16) > 0;
    if (versioned) {
      // v is required: most frames state it, mostly as 1, so that generation reaches past it.
      sb.append("\"v\":").append(random.nextInt(16) > 0 ? "1" : pick(List.of("2", "0", "-1", "1.0", "\"1\"", "null")));
      first = false;
    }
    boolean typed = false;
    for (int i = 0; i < n; i++) {
      String picked = !typed && random.nextInt(3) > 0 ? "type" : pick(ENVELOPE_NAMES);
      // Mostly no second v, which would only ever test the duplicate check.
      String name = versioned && picked.equals("v") && random.nextInt(4) > 0 ? "ext" : picked;
      if (!first) {
        sb.append(',');
      }
      first = false;
      quoted(sb, name);
      sb.append(':');
      wrongOrRight(sb, () -> envelopeValue(sb, name));
      typed |= name.equals("type");
    }
    return sb.append('}').toString();
  }

  private void envelopeValue(StringBuilder sb, String name) {
    switch (name) {
      case "v" -> sb.append(pick(List.of("1", "2", "0", "-1", "1.0", "2147483648")));
      case "type" -> quoted(sb, pick(TYPES));
      case "ts" -> quoted(sb, pick(TIMESTAMPS));
      case "session" -> sb.append(pick(List.of("{\"channel\":\"host\",\"id\":\"default\"}", "{\"channel\":\"host\"}",
          "{\"id\":\"x\",\"channel\":\"telegram\",\"more\":[1]}", "{}")));
      case "msg_id" -> string(sb);
      case "seq" -> sb.append(pick(List.of("0", "7", "-1", "9223372036854775807", "9223372036854775808", "1.5")));
      case "payload" -> payload(sb);
      default -> value(sb, 3);
    }
  }

  /**
   * A mostly valid frame of a modelled type carrying images: the validator's accepting paths.
   *
   * @throws IllegalStateException if this generator has no real images
   */
  public String imageFrame() {
    if (realImages == null) {
      throw new IllegalStateException("imageFrame needs real images: use gen(realImages, recipe)");
    }
    StringBuilder sb = new StringBuilder("{\"v\":1,\"type\":\"");
    sb.append(pick(List.of("user.message", "assistant.done", "assistant.message", "assistant.delta", "status.presence")));
    sb.append("\",\"session\":{\"channel\":\"host\",\"id\":\"default\"},\"payload\":{");
    List<String> fields = new ArrayList<>();
    StringBuilder text = new StringBuilder("\"text\":");
    string(text);
    if (random.nextInt(10) > 0) {
      fields.add(text.toString());
    }
    if (random.nextInt(5) > 0) {
      StringBuilder images = new StringBuilder("\"images\":[");
      int n = random.nextInt(6);
      for (int i = 0; i < n; i++) {
        if (i > 0) {
          images.append(',');
        }
        if (random.nextInt(8) > 0) {
          validImage(images);
        } else {
          value(images, 1);
        }
      }
      fields.add(images.append(']').toString());
    }
    if (random.nextInt(3) == 0) {
      fields.add("\"user\":{\"id\":" + random.nextInt(100) + ",\"name\":\"n\"}");
    }
    Collections.shuffle(fields, random);
    return sb.append(String.join(",", fields)).append("}}").toString();
  }

  public void payload(StringBuilder sb) {
    sb.append('{');
    int n = random.nextInt(5);
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        sb.append(',');
      }
      String name = pick(PAYLOAD_NAMES);
      quoted(sb, name);
      sb.append(':');
      wrongOrRight(sb, () -> {
        switch (name) {
          case "text", "state" -> string(sb);
          case "images" -> images(sb);
          case "user" -> sb.append(pick(List.of("{\"id\":\"1\",\"name\":\"A\"}", "{\"id\":12345}", "{\"id\":1.5}", "null")));
          default -> value(sb, 2);
        }
      });
    }
    sb.append('}');
  }

  public void images(StringBuilder sb) {
    sb.append('[');
    int n = random.nextInt(realImages == null ? 7 : 6);
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        sb.append(',');
      }
      if (realImages != null && random.nextBoolean()) {
        validImage(sb);
        continue;
      }
      sb.append('{');
      int fields = random.nextInt(4);
      for (int f = 0; f < fields; f++) {
        if (f > 0) {
          sb.append(',');
        }
        String name = f == 0 ? "media_type" : f == 1 ? "data" : pick(IMAGE_NAMES);
        quoted(sb, name);
        sb.append(':');
        if (name.equals("media_type")) {
          wrongOrRight(sb, () -> quoted(sb, pick(MEDIA_TYPES)));
        } else if (name.equals("data")) {
          wrongOrRight(sb, () -> quoted(sb, pick(data)));
        } else {
          value(sb, 1);
        }
      }
      sb.append('}');
    }
    sb.append(']');
  }

  /** A valid image object of a random type, padded or not, sometimes with reserved or unknown fields. */
  private void validImage(StringBuilder sb) {
    MediaType type = pick(List.of(MediaType.values()));
    String data = realImages.apply(type);
    if (random.nextBoolean()) {
      data = unpadded(data);
    }
    List<String> fields = new ArrayList<>(List.of(
        "\"media_type\":\"" + type.mimeType() + "\"", "\"data\":\"" + data + "\""));
    if (random.nextInt(3) == 0) {
      fields.add("\"ref\":\"sha256:abc\"");
    }
    if (random.nextInt(3) == 0) {
      fields.add("\"size\":" + random.nextInt(1000));
    }
    Collections.shuffle(fields, random);
    sb.append('{').append(String.join(",", fields)).append('}');
  }

  /** Usually the right value; sometimes any JSON value instead. */
  private void wrongOrRight(StringBuilder sb, Runnable right) {
    if (random.nextInt(8) == 0) {
      value(sb, 2);
    } else {
      right.run();
    }
  }

  /** Random bytes, biased towards JSON punctuation so that parsers get past the first byte. */
  public byte[] bytes(int maxLength) {
    byte[] b = new byte[random.nextInt(maxLength + 1)];
    String punctuation = "{}[]:,\"\\ntrufalse0123456789-+.eE \t\r\nu";
    for (int i = 0; i < b.length; i++) {
      b[i] = random.nextBoolean()
          ? (byte) punctuation.charAt(random.nextInt(punctuation.length()))
          : (byte) random.nextInt(256);
    }
    return b;
  }

  /** One to three byte-level edits: flip, insert, delete or truncate. */
  public byte[] mutate(byte[] input) {
    byte[] b = input.clone();
    int edits = 1 + random.nextInt(3);
    for (int e = 0; e < edits && b.length > 0; e++) {
      int at = random.nextInt(b.length);
      switch (random.nextInt(4)) {
        case 0 -> b[at] = (byte) random.nextInt(256);
        case 1 -> {
          byte[] longer = new byte[b.length + 1];
          System.arraycopy(b, 0, longer, 0, at);
          longer[at] = (byte) "{}[]\",:\\0".charAt(random.nextInt(9));
          System.arraycopy(b, at, longer, at + 1, b.length - at);
          b = longer;
        }
        case 2 -> {
          byte[] shorter = new byte[b.length - 1];
          System.arraycopy(b, 0, shorter, 0, at);
          System.arraycopy(b, at + 1, shorter, at, b.length - at - 1);
          b = shorter;
        }
        default -> b = java.util.Arrays.copyOf(b, at);
      }
    }
    return b;
  }

  public static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
