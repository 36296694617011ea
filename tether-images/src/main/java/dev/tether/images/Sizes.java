package dev.tether.images;

import java.util.Locale;

/** Human-readable byte counts in binary units, for error messages. */
final class Sizes {
  private Sizes() {}

  static String human(long bytes) {
    if (bytes < 1024) {
      return bytes + " bytes";
    }
    if (bytes < 1024 * 1024) {
      // Exact bytes too, so that a size just over a limit never reads the same as the limit.
      return bytes % 1024 == 0
          ? (bytes >> 10) + " KiB"
          : String.format(Locale.ROOT, "%.1f KiB (%d bytes)", bytes / 1024.0, bytes);
    }
    if (bytes % (1024 * 1024) == 0) {
      return (bytes >> 20) + " MiB";
    }
    return String.format(Locale.ROOT, "%.2f MiB (%d bytes)", bytes / (1024.0 * 1024), bytes);
  }
}
