package dev.tether.cli;

import dev.tether.api.files.PrivateDirectory;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A directory a command keeps its state in ({@code serve --data-dir}, {@code agent --data-dir}):
 * created {@code 0700}, or an existing one of ours tightened to {@code 0700}; another user's, or a
 * file, is refused with one line naming the option ({@link UsageException}, exit status 2), never a
 * stack trace. See {@link PrivateDirectory}.
 */
final class DataDir {
  private DataDir() {}

  static Path claim(String option, Path dir) {
    try {
      return PrivateDirectory.claim(dir);
    } catch (IOException e) {
      throw new UsageException(option + ": " + (e.getMessage() == null ? dir + ": " + e : e.getMessage()));
    }
  }
}
