package dev.tether.cli;

import dev.tether.api.TetherException;
import dev.tether.images.FrameValidator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code tether validate FILE|-}: checks one frame against every wire rule. Exit 0 when it is
 * valid; 1 with {@code CODE: sentence} on stderr when it is not; 2 when the file cannot be read.
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
    description = {"Check one frame (JSON) against the tether wire rules.",
        "Exit 0 when valid; 1 with the error code and a sentence on stderr when not; 2 when FILE cannot be read."})
final class ValidateCommand implements Callable<Integer> {
  static final int INVALID = 1;
  static final int UNREADABLE = 2;

  @Parameters(index = "0", paramLabel = "FILE|-", description = "The frame to check; - reads standard input.")
  String file;

  @Override
  public Integer call() {
    try (InputStream in = Inputs.open(file)) {
      var frame = FrameValidator.standard().read(in);
      System.out.println("valid: " + frame.type() + " frame" + Inputs.imagesNote(frame));
      return 0;
    } catch (TetherException e) {
      System.err.println(Inputs.describe(e));
      return INVALID;
    } catch (NoSuchFileException e) {
      System.err.println("tether validate: no such file: " + e.getFile());
      return UNREADABLE;
    } catch (IOException e) {
      System.err.println("tether validate: cannot read " + file + ": " + e.getMessage());
      return UNREADABLE;
    }
  }
}
