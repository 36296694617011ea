package dev.tether.llm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.api.ImageData;
import dev.tether.api.MediaType;
import dev.tether.api.Part;
import java.io.ByteArrayOutputStream;
import java.util.Base64;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Image data crossing the encoder's 48 KiB chunks comes out exactly, in both ImageData forms. */
class LlmRequestStreamingTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {33, 49_151, 49_152, 49_153, 98_304, 98_305, 100_002, 300_001})
  void imageAcrossChunkBoundaries_isEncodedExactlyOnceInBothForms(int size) throws Exception {
    byte[] bytes = Fixtures.pngHeader(10, 10, size);
    new Random(size).nextBytes(bytes);
    System.arraycopy(Fixtures.pngHeader(10, 10, 33), 0, bytes, 0, 33);
    String expected = Base64.getEncoder().encodeToString(bytes);
    for (ImageData data : new ImageData[] {ImageData.ofBytes(bytes), ImageData.ofBase64(expected),
        ImageData.ofBase64(expected.replace("=", ""))}) {
      for (ProviderProfile profile : GoldenRequestTest.profiles()) {
        LlmRequest request = LlmRequest.prepare(profile, Fixtures.userTurn(new Part.Image(MediaType.PNG, data)));
        RecordingStream out = new RecordingStream();
        request.writeTo(out);
        assertFalse(out.closed, "writeTo must not close the caller's stream");
        JsonNode tree = MAPPER.readTree(out.toByteArray());
        var values = ProfilePropertiesTest.base64Values(tree, profile.provider());
        assertEquals(1, values.size());
        assertEquals(expected, values.get(0), profile.name());
        assertArrayEquals(bytes, Base64.getDecoder().decode(values.get(0)));
      }
    }
  }

  @org.junit.jupiter.api.Test
  void toTree_holdsAnImageWhoseBase64IsOverJacksonsDefaultStringCap() {
    byte[] bytes = Fixtures.pngHeader(10, 10, 16 << 20); // 22.4 M base64 characters > 20 M default cap
    LlmRequest request = LlmRequest.prepare(ProviderProfile.openAiChat(),
        Fixtures.userTurn(new Part.Image(MediaType.PNG, ImageData.ofBytes(bytes))));
    String url = request.toTree().at("/messages/0/content/0/image_url/url").asText();
    assertEquals("data:image/png;base64,".length() + (16 << 20) / 3 * 4 + 4, url.length());
  }

  /** Records whether it was closed. */
  static final class RecordingStream extends ByteArrayOutputStream {
    boolean closed;

    @Override
    public void close() {
      closed = true;
    }
  }
}
