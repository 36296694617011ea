package dev.tether.cli;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * The one line a command prints when it fails: what went wrong, in words, never a stack trace.
 * Wrappers (futures, unchecked I/O) are looked through to the failure they carry; the JDK's file
 * exceptions, whose message is only a path, say what happened to it.
 */
final class CommandFailure {
  private CommandFailure() {}

  /** {@code e} as one line, without the command's name. */
  static String describe(Throwable e) {
    Throwable t = unwrap(e);
    String message = t.getMessage() == null ? "" : t.getMessage().strip();
    if (t instanceof NoSuchFileException f) {
      return "no such file: " + f.getFile();
    }
    if (t instanceof AccessDeniedException f) {
      return "permission denied: " + f.getFile();
    }
    if (t instanceof FileSystemException f && f.getReason() != null) {
      return f.getFile() + ": " + f.getReason();
    }
    if (t instanceof FileNotFoundException && !message.isEmpty()) {
      return message; // "PATH (No such file or directory)"
    }
    if ((t instanceof IOException || t instanceof UncheckedIOException) && !message.isEmpty()) {
      return message;
    }
    // Anything else names its type: a bug is then reportable from the line alone.
    String type = t.getClass().getSimpleName();
    return message.isEmpty() ? type : type + ": " + message;
  }

  /** The failure a wrapper carries (futures, unchecked I/O), else {@code e}. */
  static Throwable unwrap(Throwable e) {
    Throwable t = e;
    // Exactly UncheckedIOException: its subclasses (a store that is unavailable) carry their own words.
    while ((t instanceof ExecutionException || t instanceof CompletionException || t.getClass() == UncheckedIOException.class)
        && t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t;
  }

  /** One line on a single line: a message with line breaks keeps only its first. */
  static String oneLine(String text) {
    int nl = text.indexOf('\n');
    return nl < 0 ? text : text.substring(0, nl).strip();
  }
}
