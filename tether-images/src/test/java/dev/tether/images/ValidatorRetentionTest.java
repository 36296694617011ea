package dev.tether.images;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.FrameCodec;
import dev.tether.api.Frames;
import dev.tether.api.MediaType;
import java.lang.ref.WeakReference;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The validator reuses one scanner per thread; it must not keep the last frame's bytes alive. */
class ValidatorRetentionTest {
  @Test
  void validate_doesNotKeepTheFrameBytesReachable() throws Exception {
    WeakReference<byte[]> wire = validateAndForget();
    for (int i = 0; i < 20 && wire.get() != null; i++) {
      System.gc();
      Thread.sleep(10);
    }
    assertTrue(wire.get() == null, "the frame's bytes are still reachable after validation");
  }

  private static WeakReference<byte[]> validateAndForget() {
    byte[] bytes = FrameCodec.standard().write(Frames.hostUserMessage("s", "hi",
        List.of(Images.fromBytes(SampleImages.small(MediaType.PNG), MediaType.PNG))));
    FrameValidator.standard().validate(bytes);
    return new WeakReference<>(bytes);
  }
}
