package dev.tether.images;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.RawJson;
import dev.tether.api.TetherException;
import dev.tether.api.internal.ApiInternals;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/** Builds wire frames for the validator tests and runs them through each consumer entry point. */
final class Wire {
  /** A codec that never hits the wire limit, for getting {@link Frame}s to validate as objects. */
  static final FrameCodec ROOMY = FrameCodec.withLimits(Limits.builder().maxFrameBytes(Integer.MAX_VALUE - 8).build());

  private Wire() {}

  static String image(String mediaType, String data) {
    return "{\"media_type\":\"" + mediaType + "\",\"data\":\"" + data + "\"}";
  }

  static String image(MediaType type, byte[] bytes) {
    return image(type.mimeType(), Base64.getEncoder().encodeToString(bytes));
  }

  static String smallImage(MediaType type) {
    return image(type.mimeType(), SampleImages.smallBase64(type));
  }

  /** A payload with {@code text} and, when any are given, an {@code images} array. */
  static String payload(String text, List<String> images) {
    StringBuilder sb = new StringBuilder(64 + images.stream().mapToInt(String::length).sum());
    sb.append("{\"text\":\"").append(text).append('"');
    if (!images.isEmpty()) {
      sb.append(",\"images\":[").append(String.join(",", images)).append(']');
    }
    return sb.append('}').toString();
  }

  static byte[] frame(String type, String payload) {
    return ("{\"v\":1,\"type\":\"" + type + "\",\"session\":{\"channel\":\"host\",\"id\":\"default\"},"
        + "\"msg_id\":\"host-1\",\"payload\":" + payload + "}").getBytes(StandardCharsets.UTF_8);
  }

  static byte[] userMessage(List<String> images) {
    return frame("user.message", payload("", images));
  }

  /** The payload bytes of {@code wire}, located by a plain search; for frames built by {@link #frame}. */
  static RawJson payloadOf(byte[] wire) {
    int from = indexOf(wire, "\"payload\":".getBytes(StandardCharsets.US_ASCII)) + "\"payload\":".length();
    // Wrapped without a check, like bytes a store hands over: the validator must do the checking.
    return ApiInternals.wrapTrusted(wire, from, wire.length - 1 - from);
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i <= haystack.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new IllegalArgumentException("no payload");
  }

  static String typeOf(byte[] wire) {
    String head = new String(wire, 0, Math.min(wire.length, 200), StandardCharsets.UTF_8);
    int at = head.indexOf("\"type\":\"") + 8;
    return head.substring(at, head.indexOf('"', at));
  }

  /** The consumer entry points of {@link FrameValidator}. */
  enum Consumer {
    VALIDATE_BYTES {
      @Override
      void run(FrameValidator v, byte[] wire) {
        v.validate(wire);
      }
    },
    VALIDATE_BYTES_RANGE {
      @Override
      void run(FrameValidator v, byte[] wire) {
        byte[] padded = new byte[wire.length + 10];
        Arrays.fill(padded, (byte) '#');
        System.arraycopy(wire, 0, padded, 5, wire.length);
        v.validate(padded, 5, wire.length);
      }
    },
    READ_STREAM {
      @Override
      void run(FrameValidator v, byte[] wire) throws IOException {
        Frame frame = v.read(new ByteArrayInputStream(wire));
        if (!frame.equals(FrameCodec.withLimits(v.limits()).read(wire))) {
          throw new AssertionError("read(InputStream) returned a different frame than the codec reads");
        }
      }
    },
    READ_BYTES {
      @Override
      void run(FrameValidator v, byte[] wire) {
        v.read(wire);
      }
    },
    VALIDATE_FRAME {
      @Override
      void run(FrameValidator v, byte[] wire) {
        v.validate(ROOMY.read(wire));
      }
    },
    VALIDATE_PAYLOAD {
      @Override
      void run(FrameValidator v, byte[] wire) {
        v.validatePayload(typeOf(wire), payloadOf(wire));
      }
    };

    abstract void run(FrameValidator v, byte[] wire) throws IOException;

    /** Whether this entry point sees the wire size (the object forms do not). */
    boolean checksWireSize() {
      return this != VALIDATE_FRAME && this != VALIDATE_PAYLOAD;
    }

    /** The rejection, or empty when the frame passed. */
    Optional<TetherException> outcome(FrameValidator v, byte[] wire) throws IOException {
      try {
        run(v, wire);
        return Optional.empty();
      } catch (TetherException e) {
        return Optional.of(e);
      }
    }

    ErrorCode rejectCode(FrameValidator v, byte[] wire) throws IOException {
      return outcome(v, wire).orElseThrow(() -> new AssertionError(this + " accepted the frame")).code();
    }
  }
}
