package dev.tether.cli;

import dev.tether.api.Frame;
import dev.tether.api.TetherException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Helpers shared by the file-reading commands ({@code validate}, {@code convert}). */
final class Inputs {
  private Inputs() {}

  /** {@code -} is standard input (left open when closed); anything else a file path. */
  static InputStream open(String file) throws IOException {
    if ("-".equals(file)) {
      return new FilterInputStream(System.in) {
        @Override
        public void close() {}
      };
    }
    return Files.newInputStream(Path.of(file));
  }

  /** {@code CODE: sentence}, with the image index when one image is at fault. */
  static String describe(TetherException e) {
    String where = e.imageIndex().isPresent() ? " (image " + e.imageIndex().getAsInt() + ")" : "";
    return e.code() + where + ": " + e.getMessage();
  }

  static String imagesNote(Frame frame) {
    int n = frame.payloadView().images().size();
    return n == 0 ? "" : " with " + n + (n == 1 ? " image" : " images");
  }
}
