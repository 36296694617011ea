package dev.tether.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tether.api.MediaType;
import dev.tether.api.RawJson;
import dev.tether.api.Role;
import dev.tether.images.BlobKey;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SessionLineCodecTest {
  private static final String KEY = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad.png";

  static SessionTurn read(String line) throws SessionLineException {
    byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
    return SessionLineCodec.read(bytes, 0, bytes.length);
  }

  @Test
  void write_imageRefIsAFewBytesAndReadsBack() throws Exception {
    SessionTurn turn = new SessionTurn(Role.USER, Fixtures.T0, Optional.of("Alice"), List.of(
        new SessionPart.Text("[Alice]: Analyze this"), new SessionPart.ImageRef(BlobKey.of(KEY), 10_000_000)));
    String line = new String(SessionLineCodec.write(turn), StandardCharsets.UTF_8);
    assertEquals("{\"role\":\"user\",\"ts\":\"2026-01-01T00:00:00Z\",\"user\":\"Alice\",\"content\":["
        + "{\"type\":\"text\",\"text\":\"[Alice]: Analyze this\"},"
        + "{\"type\":\"image\",\"key\":\"" + KEY + "\",\"media_type\":\"image/png\",\"size\":10000000}]}", line);
    assertEquals(turn, read(line));
  }

  @Test
  void read_toolUseAndResultWithImage_roundTrip() throws Exception {
    SessionTurn use = Fixtures.toolUse("t1", "let me look");
    SessionTurn result = SessionTurn.user(Fixtures.T0, new SessionPart.ToolResult("t1",
        List.of(new SessionPart.Text("shot"), new SessionPart.ImageRef(BlobKey.of(KEY), 3)), true));
    for (SessionTurn turn : List.of(use, result)) {
      assertEquals(turn, read(new String(SessionLineCodec.write(turn), StandardCharsets.UTF_8)));
    }
  }

  @Test
  void read_ignoresUnknownFieldsAndPartTypes() throws Exception {
    SessionTurn turn = read("{\"role\":\"assistant\",\"x\":{\"y\":[1]},\"content\":[{\"type\":\"thinking\",\"t\":1},"
        + "{\"type\":\"text\",\"text\":\"hi\",\"cache\":true}]}");
    assertEquals(SessionTurn.assistant(Instant.EPOCH, new SessionPart.Text("hi")), turn);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "", "[]", "null", "{", "{\"role\":\"user\"}", "{\"role\":\"system\",\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}",
      "{\"role\":\"user\",\"content\":[]}",
      "{\"role\":\"user\",\"content\":[{\"type\":\"text\"}]}",
      "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":1}]}",
      "{\"role\":\"user\",\"content\":[{\"type\":\"image\",\"key\":\"../../etc/passwd\",\"media_type\":\"image/png\"}]}",
      "{\"role\":\"user\",\"content\":[{\"type\":\"image\",\"key\":\"" + KEY + "\",\"media_type\":\"image/gif\"}]}",
      "{\"role\":\"user\",\"ts\":\"yesterday\",\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}",
      "{\"role\":\"user\",\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}",
      "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"x\"}]} {}",
      "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t\",\"content\":[{\"type\":\"tool_use\",\"id\":\"a\",\"name\":\"b\",\"input\":{}}]}]}",
      "{\"role\":\"user\",\"content\":[{\"type\":\"image\",\"key\":\"" + KEY + "\",\"media_type\":\"image/png\",\"size\":1.5}]}",
      "{\"role\":\"user\",\"content\":[{\"type\":\"image\",\"key\":\"" + KEY + "\",\"media_type\":\"image/png\",\"size\":-1}]}",
  })
  void read_rejectsLinesThatAreNotTurns(String line) {
    assertThrows(SessionLineException.class, () -> read(line));
  }

  @Property(tries = 300)
  void anyTurn_roundTripsThroughItsLine(@ForAll("turns") SessionTurn turn) throws Exception {
    byte[] line = SessionLineCodec.write(turn);
    assertEquals(-1, new String(line, StandardCharsets.UTF_8).indexOf('\n'), "a line never contains a newline");
    assertEquals(turn, SessionLineCodec.read(line, 0, line.length));
  }

  @Provide
  Arbitrary<SessionTurn> turns() {
    Arbitrary<SessionPart> text = Arbitraries.strings().ofMaxLength(40).map(SessionPart.Text::new);
    Arbitrary<SessionPart> image = Combinators.combine(
        Arbitraries.strings().withChars("0123456789abcdef").ofLength(64), Arbitraries.of(MediaType.class),
        Arbitraries.longs().between(0, 10_000_000))
        .as((hex, type, size) -> new SessionPart.ImageRef(new BlobKey(hex, type), size));
    Arbitrary<SessionPart> use = Combinators.combine(Arbitraries.strings().ofMaxLength(8), Arbitraries.strings().ofMaxLength(8))
        .as((id, name) -> new SessionPart.ToolUse(id, name, RawJson.of("{\"a\":[1,{\"b\":null}]}")));
    Arbitrary<SessionPart> result = Combinators.combine(Arbitraries.strings().ofMaxLength(8),
        Arbitraries.oneOf(text, image).list().ofMaxSize(3), Arbitraries.of(true, false))
        .as(SessionPart.ToolResult::new);
    return Combinators.combine(Arbitraries.of(Role.class),
        Arbitraries.longs().between(0, 4_000_000_000L).map(Instant::ofEpochSecond),
        Arbitraries.strings().ofMaxLength(10).optional(),
        Arbitraries.oneOf(text, image, use, result).list().ofMinSize(1).ofMaxSize(4))
        .as(SessionTurn::new);
  }
}
