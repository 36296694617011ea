package dev.tether.api.testing;

import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * QuickTheories generators the property tests of every module share (published in tether-api's
 * test-jar): strings over explicit UTF-16 alphabets (lone surrogates included, as hostile input
 * needs), nullable and optional values, and longs spread over every order of magnitude of a wide
 * range (a uniform draw from 0..Long.MAX_VALUE almost never yields a value below 10^15, so the
 * small units of a size formatter would go untested). Stateless; thread-safe.
 */
public final class QtGens {
  private QtGens() {}

  /** Any UTF-16 char from {@code from} to {@code to} inclusive, surrogates too. */
  public static Gen<Character> chars(char from, char to) {
    return Generate.characters(from, to);
  }

  /** One of the chars of {@code alphabet} (a surrogate pair counts as two separate chars). */
  public static Gen<Character> charsOf(String alphabet) {
    List<Character> list = new ArrayList<>();
    for (char c : alphabet.toCharArray()) {
      list.add(c);
    }
    return arbitrary().pick(list);
  }

  /** Each part equally likely, then a char from within it: small hostile sets show up often. */
  @SafeVarargs
  public static Gen<Character> anyOf(Gen<Character> first, Gen<Character>... rest) {
    return Generate.oneOf(first, rest);
  }

  /** Strings of {@code minLength} to {@code maxLength} chars, each drawn from {@code chars}. */
  public static Gen<String> strings(Gen<Character> chars, int minLength, int maxLength) {
    return lists().of(chars).ofSizeBetween(minLength, maxLength).map(list -> {
      StringBuilder b = new StringBuilder(list.size());
      list.forEach(b::append);
      return b.toString();
    });
  }

  /** {@code null} in {@code nullPercent} of the draws, otherwise a value of {@code gen}. */
  public static <T> Gen<T> nullable(Gen<T> gen, int nullPercent) {
    return Generate.frequency(Pair.of(nullPercent, Generate.constant((T) null)), Pair.of(100 - nullPercent, gen));
  }

  /** Empty in {@code emptyPercent} of the draws, otherwise a value of {@code gen}. */
  public static <T> Gen<Optional<T>> optional(Gen<T> gen, int emptyPercent) {
    return Generate.frequency(Pair.of(emptyPercent, Generate.constant(Optional.<T>empty())),
        Pair.of(100 - emptyPercent, gen.map(Optional::of)));
  }

  /**
   * Longs in {@code [min, max]}: a third the bounds and their neighbours, a third uniform, a third
   * with a uniformly chosen bit length (so every magnitude from 0 to {@code max} is as likely).
   */
  public static Gen<Long> longsAcrossMagnitudes(long min, long max) {
    if (min > max) {
      throw new IllegalArgumentException("min " + min + " > max " + max);
    }
    List<Long> edges = new ArrayList<>(List.of(min, max));
    if (min < max) {
      edges.add(min + 1);
      edges.add(max - 1);
    }
    if (min < 0 && max > 0) {
      edges.add(0L);
    }
    Gen<Long> byBitLength = integers().between(0, 63).flatMap(bits -> {
      long low = bits == 0 ? 0 : 1L << (bits - 1);
      long high = bits == 0 ? 0 : bits == 63 ? Long.MAX_VALUE : (1L << bits) - 1;
      long from = Math.max(low, min);
      long to = Math.min(high, max);
      return from <= to ? longs().between(from, to) : arbitrary().pick(edges);
    });
    return Generate.oneOf(arbitrary().pick(edges), longs().between(min, max), byBitLength);
  }
}
