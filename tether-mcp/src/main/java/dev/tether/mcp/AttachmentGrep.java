package dev.tether.mcp;

import dev.tether.media.AttachmentCatalog;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The search behind {@code grep_attachment}: a regular expression over the lines of text files,
 * bounded three ways. At most {@code maxMatches} matching lines are reported (then it stops); all
 * files together get one time budget, enforced inside the regex engine by
 * {@link DeadlineCharSequence} (a catastrophic pattern is cut off, and the answer says so); a
 * binary file (a NUL in its first {@value #BINARY_PROBE_BYTES} bytes, the rule of
 * {@code read_attachment}) or one larger than {@value #MAX_FILE_BYTES} bytes is skipped and named.
 * Bytes that are not UTF-8 read as U+FFFD. A reported line is cut to {@value #MAX_LINE_CHARS}
 * characters. Stateless apart from one search's accumulators; not thread-safe.
 */
final class AttachmentGrep {
  static final int BINARY_PROBE_BYTES = AttachmentCatalog.BINARY_PROBE_BYTES;
  static final int MAX_FILE_BYTES = 16 << 20;
  static final int MAX_LINE_CHARS = 300;
  static final int MAX_PATTERN_CHARS = 1000;

  /** One file to search: its name and bytes (null: larger than {@value #MAX_FILE_BYTES}, not fetched). */
  record File(String name, byte[] bytes) {}

  private final Pattern pattern;
  private final int maxMatches;
  private final long deadlineNanos;
  private final LongSupplier nanoTime;
  private final StringBuilder out = new StringBuilder();
  private final List<String> skipped = new ArrayList<>();
  private int matches;
  private int filesWithMatches;
  private String cutOffIn;
  private boolean stoppedAtMax;

  AttachmentGrep(Pattern pattern, int maxMatches, long budgetNanos, LongSupplier nanoTime) {
    this.pattern = pattern;
    this.maxMatches = maxMatches;
    this.nanoTime = nanoTime;
    this.deadlineNanos = nanoTime.getAsLong() + budgetNanos;
  }

  /**
   * Compiles a caller's pattern.
   *
   * @throws ToolError INVALID_ARGUMENT for an empty, overlong or malformed pattern
   */
  static Pattern compile(String tool, String regex) {
    if (regex.isEmpty() || regex.length() > MAX_PATTERN_CHARS) {
      throw ToolError.invalidArguments(tool + ": pattern must be 1 to " + MAX_PATTERN_CHARS + " characters but was "
          + regex.length());
    }
    try {
      return Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw ToolError.invalidArguments(tool + ": pattern is not a valid regular expression: "
          + e.getDescription() + " near index " + e.getIndex());
    }
  }

  /** Searches {@code files} in order and returns the report. */
  String search(List<File> files) {
    for (File f : files) {
      if (stoppedAtMax || cutOffIn != null) {
        break;
      }
      if (f.bytes() == null || f.bytes().length > MAX_FILE_BYTES) {
        skipped.add(f.name() + " (larger than " + MAX_FILE_BYTES + " bytes)");
      } else if (isBinary(f.bytes())) {
        skipped.add(f.name() + " (binary)");
      } else {
        searchFile(f.name(), decode(f.bytes()));
      }
    }
    return report(files.size());
  }

  private void searchFile(String name, CharSequence text) {
    boolean any = false;
    int line = 1;
    int start = 0;
    int length = text.length();
    Matcher m = pattern.matcher("");
    while (start <= length) {
      int end = start;
      while (end < length && text.charAt(end) != '\n') {
        end++;
      }
      CharSequence lineText = text.subSequence(start, end > start && text.charAt(end - 1) == '\r' ? end - 1 : end);
      boolean found;
      try {
        found = m.reset(new DeadlineCharSequence(lineText, deadlineNanos, nanoTime)).find();
      } catch (DeadlineCharSequence.Expired e) {
        cutOffIn = name + " line " + line;
        return;
      } catch (StackOverflowError e) { // a deeply recursive pattern on a long line
        cutOffIn = name + " line " + line + " (the pattern recursed too deeply)";
        return;
      }
      if (found) {
        if (matches >= maxMatches) {
          stoppedAtMax = true; // one more than may be shown: say that there are more
          break;
        }
        any = true;
        matches++;
        String shown = lineText.length() > MAX_LINE_CHARS ? lineText.subSequence(0, MAX_LINE_CHARS) + "..." : lineText.toString();
        out.append(name).append(':').append(line).append(": ").append(shown).append('\n');
      }
      if (nanoTime.getAsLong() - deadlineNanos > 0) {
        cutOffIn = name + " line " + line;
        break;
      }
      line++;
      start = end + 1;
    }
    if (any) {
      filesWithMatches++;
    }
  }

  private String report(int fileCount) {
    StringBuilder r = new StringBuilder(out);
    r.append(matches).append(matches == 1 ? " matching line" : " matching lines").append(" in ").append(filesWithMatches)
        .append(filesWithMatches == 1 ? " file" : " files").append(" (of ").append(fileCount).append(" searched)");
    if (stoppedAtMax) {
      r.append("; stopped at max_matches=").append(maxMatches).append(", there are more");
    }
    if (cutOffIn != null) {
      r.append("; cut off in ").append(cutOffIn).append(": the pattern ran past its time budget (simplify it,"
          + " e.g. avoid nested quantifiers like (a+)+, or name one file)");
    }
    if (!skipped.isEmpty()) {
      r.append("; skipped ").append(String.join(", ", skipped));
    }
    return r.toString();
  }

  private static boolean isBinary(byte[] bytes) {
    int probe = Math.min(bytes.length, BINARY_PROBE_BYTES);
    for (int i = 0; i < probe; i++) {
      if (bytes[i] == 0) {
        return true;
      }
    }
    return false;
  }

  private static CharSequence decode(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
          .onUnmappableCharacter(CodingErrorAction.REPLACE).decode(ByteBuffer.wrap(bytes));
    } catch (CharacterCodingException e) {
      return CharBuffer.wrap(new String(bytes, StandardCharsets.UTF_8));
    }
  }
}
