package dev.tether.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;

/**
 * The options every chat bridge command ({@code tether telegram}, {@code slack}, {@code whatsapp})
 * shares: which instance it bridges, where it keeps its state, and how long a lazy media ref
 * stays fetchable. The parsers throw {@link IllegalArgumentException} with a one-line message
 * naming the option.
 */
final class ChatBridgeOptions {
  private static final Pattern SHORT_DURATION = Pattern.compile("(\\d{1,9})([smhd])");

  @Option(names = "--instance", paramLabel = "ID", defaultValue = "default", description = "The instance to bridge. Default: ${DEFAULT-VALUE}.")
  String instance = "default";

  @Option(names = "--state-dir", paramLabel = "DIR",
      description = "Where the bridge keeps its cursors and media refs, so a restart sends nothing twice."
          + " Default: ~/.tether/${COMMAND-NAME}/<instance>.")
  Path stateDir;

  @Option(names = "--media-ttl", paramLabel = "DURATION", defaultValue = "30m",
      description = "How long a lazy media ref stays fetchable: 90s, 30m, 2h, 1d. Default: ${DEFAULT-VALUE}.")
  String mediaTtl = "30m";

  /** {@code --state-dir}, or {@code ~/.tether/<bridge>/<instance>}. */
  Path stateDir(String bridge) {
    return stateDir != null ? stateDir : Connections.home().resolve(".tether").resolve(bridge).resolve(instance);
  }

  /** {@code --media-ttl} as a duration. */
  Duration mediaTtl() {
    return duration(mediaTtl);
  }

  /** {@code 90s}, {@code 30m}, {@code 2h}, {@code 1d}, or an ISO-8601 duration ({@code PT30M}); positive. */
  static Duration duration(String text) {
    String t = text == null ? "" : text.strip();
    Duration d = parseDuration(text, t);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException("--media-ttl must be positive but was '" + text + "'");
    }
    return d;
  }

  private static Duration parseDuration(String text, String t) {
    Matcher m = SHORT_DURATION.matcher(t);
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        default -> Duration.ofDays(n);
      };
    }
    try {
      return Duration.parse(t);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("--media-ttl must read like 90s, 30m, 2h or 1d but was '" + text + "'");
    }
  }

  /** Whether {@code text} ({@code lazy} or {@code eager}, any case) of {@code option} says lazy. */
  static boolean lazy(String option, String text) {
    String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    if (!t.equals("lazy") && !t.equals("eager")) {
      throw new IllegalArgumentException(option + " must be lazy or eager but was '" + text + "'");
    }
    return t.equals("lazy");
  }
}
