package dev.tether.media.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.Locale;
import java.util.Set;

/**
 * File helpers for the media registry, the media directory and the attachment catalog: safe file
 * names and bounded reads (atomic writes are {@link dev.tether.api.files.AtomicFiles}). Stateless and thread-safe.
 *
 * <p><b>Safe names.</b> {@link #sanitise} turns any client-supplied name into one plain file name:
 * only the last path segment counts ({@code /} and {@code \} both separate), every character that
 * is not a letter, digit or one of {@code space . _ - + ( ) @ , = ~ ! # & '} becomes {@code _}
 * (so NUL, controls, {@code %}, {@code :}, {@code *} and friends never reach the file system and
 * {@code %2e%2e} stays literal text), leading dots become {@code _} (no {@code .}, {@code ..} or
 * hidden files), trailing dots and spaces are dropped, Windows device names get a {@code _}
 * prefix, the name is cut to {@link #MAX_NAME_BYTES} UTF-8 bytes keeping its extension, and an
 * empty result is {@code file}. {@code sanitise(sanitise(x)).equals(sanitise(x))} holds.
 */
public final class MediaFiles {
  /** The longest sanitised name in UTF-8 bytes, leaving room for a duplicate suffix under 255. */
  public static final int MAX_NAME_BYTES = 200;

  private static final String ALLOWED_PUNCTUATION = " ._-+()@,=~!#&'";
  private static final Set<String> WINDOWS_DEVICES = Set.of("CON", "PRN", "AUX", "NUL",
      "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9",
      "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9");

  private MediaFiles() {}

  /** A plain, safe file name for {@code raw}; see the class comment for the rules. */
  public static String sanitise(String raw) {
    String s = Normalizer.normalize(raw, Normalizer.Form.NFC);
    int cut = Math.max(s.lastIndexOf('/'), s.lastIndexOf('\\'));
    s = s.substring(cut + 1);
    StringBuilder sb = new StringBuilder(s.length());
    s.codePoints().forEach(cp -> {
      boolean ok = Character.isLetterOrDigit(cp) || (cp < 0x80 && ALLOWED_PUNCTUATION.indexOf(cp) >= 0);
      sb.appendCodePoint(ok ? cp : '_');
    });
    StringBuilder trimmed = new StringBuilder(sb.toString().stripLeading());
    for (int i = 0; i < trimmed.length() && trimmed.charAt(i) == '.'; i++) {
      trimmed.setCharAt(i, '_');
    }
    String name = stripTrailingDotsAndSpaces(trimmed.toString());
    int dot = name.indexOf('.');
    String base = dot < 0 ? name : name.substring(0, dot);
    if (WINDOWS_DEVICES.contains(base.strip().toUpperCase(Locale.ROOT))) {
      name = "_" + name;
    }
    name = truncate(name);
    return name.isEmpty() ? "file" : name;
  }

  /** {@code name} with {@code -n} before its extension: {@code shot.png} becomes {@code shot-2.png}. */
  public static String withSuffix(String name, int n) {
    int dot = name.lastIndexOf('.');
    return dot <= 0 ? name + "-" + n : name.substring(0, dot) + "-" + n + name.substring(dot);
  }

  /**
   * {@code dir/name} for a name that is already sanitised; anything else (a separator, {@code ..},
   * an absolute path) is an {@link IllegalArgumentException}, checked again on the resolved path.
   */
  public static Path resolveInside(Path dir, String name) {
    requirePlain(name);
    Path base = dir.toAbsolutePath().normalize();
    Path path = base.resolve(name).normalize();
    if (!base.equals(path.getParent())) {
      throw new IllegalArgumentException("file name escapes its directory: '" + MediaText.excerpt(name) + "'");
    }
    return path;
  }

  /** {@code name} when it is already sanitised (one plain component); anything else is an {@link IllegalArgumentException}. */
  public static String requirePlain(String name) {
    if (!sanitise(name).equals(name)) {
      throw new IllegalArgumentException("not a plain file name: '" + MediaText.excerpt(name) + "'");
    }
    return name;
  }

  /**
   * The bytes of a regular file that is not a symbolic link, at most {@code max} of them.
   *
   * @throws FileTooLargeException when the file holds more than {@code max} bytes
   */
  public static byte[] readBounded(Path path, long max) throws IOException {
    if (max < 0) {
      throw new IllegalArgumentException("max must be >= 0 but was " + max);
    }
    if (Files.isSymbolicLink(path)) {
      throw new IOException(path + " is a symbolic link; refusing to follow it");
    }
    try (InputStream in = Files.newInputStream(path, LinkOption.NOFOLLOW_LINKS)) {
      int cap = max >= Integer.MAX_VALUE - 9 ? Integer.MAX_VALUE - 8 : (int) max + 1;
      byte[] bytes = in.readNBytes(cap);
      if (bytes.length > max) {
        throw new FileTooLargeException(path + " is larger than the limit of " + max + " bytes");
      }
      return bytes;
    }
  }

  /** A file over the size a reader accepts. */
  public static final class FileTooLargeException extends IOException {
    private static final long serialVersionUID = 1L;

    FileTooLargeException(String message) {
      super(message);
    }
  }

  private static String stripTrailingDotsAndSpaces(String s) {
    int end = s.length();
    while (end > 0 && (s.charAt(end - 1) == '.' || s.charAt(end - 1) == ' ')) {
      end--;
    }
    return s.substring(0, end);
  }

  private static String truncate(String name) {
    if (name.getBytes(StandardCharsets.UTF_8).length <= MAX_NAME_BYTES) {
      return name;
    }
    int dot = name.lastIndexOf('.');
    String ext = dot > 0 && name.length() - dot <= 16 ? name.substring(dot) : "";
    String stem = name.substring(0, name.length() - ext.length());
    int budget = MAX_NAME_BYTES - ext.getBytes(StandardCharsets.UTF_8).length;
    StringBuilder sb = new StringBuilder();
    int used = 0;
    for (int i = 0; i < stem.length(); ) {
      int cp = stem.codePointAt(i);
      int n = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
      if (used + n > budget) {
        break;
      }
      sb.appendCodePoint(cp);
      used += n;
      i += Character.charCount(cp);
    }
    return stripTrailingDotsAndSpaces(sb.toString()) + ext;
  }
}
