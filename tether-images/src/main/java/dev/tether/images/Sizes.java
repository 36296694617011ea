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
      return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
    }
    if (bytes % (1024 * 1024) == 0) {
      return (bytes >> 20) + " MiB";
    }
    return String.format(Locale.ROOT, "%.2f MiB (%d bytes)", bytes / (1024.0 * 1024), bytes);
  }
}
