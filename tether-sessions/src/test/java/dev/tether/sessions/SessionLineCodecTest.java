package dev.tether.sessions;

import dev.tether.api.blobs.BlobKey;
import static dev.tether.api.testing.QtGens.chars;
import static dev.tether.api.testing.QtGens.charsOf;
import static dev.tether.api.testing.QtGens.longsAcrossMagnitudes;
import static dev.tether.api.testing.QtGens.optional;
import static dev.tether.api.testing.QtGens.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.tether.api.MediaType;
import dev.tether.api.RawJson;
import dev.tether.api.Role;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

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

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"x\"}],\"role\":\"user\"}",
      "{\"role\":\"user\",\"ts\":\"2026-01-01T00:00:00Z\",\"ts\":\"2026-01-01T00:00:00Z\",\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}",
      "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"x\",\"text\":\"y\"}]}",
      "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"type\":\"text\",\"text\":\"x\"}]}",
      "{\"role\":\"user\",\"x\":1,\"x\":2,\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}",
      "{\"role\":\"user\",\"x\":{\"y\":1,\"y\":2},\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}",
      "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"x\",\"c\":[{\"d\":1,\"d\":1}]}]}",
      "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"a\",\"name\":\"b\",\"input\":{\"k\":1,\"k\":2}}]}",
      "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"a\",\"name\":\"b\",\"input\":[{\"k\":1,\"k\":2}]}]}",
      "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t\",\"content\":[{\"type\":\"text\",\"text\":\"x\",\"text\":\"x\"}]}]}",
  })
  void read_rejectsDuplicateKeysAnywhereInTheLine(String line) {
    SessionLineException e = assertThrows(SessionLineException.class, () -> read(line));
    assertTrue(e.getMessage().startsWith("not valid JSON: Duplicate field '"), e.getMessage());
  }

  @Test
  void anyTurn_roundTripsThroughItsLine() {
    qt().withExamples(300).forAll(turns()).checkAssert(turn -> {
      byte[] line = SessionLineCodec.write(turn);
      assertEquals(-1, new String(line, StandardCharsets.UTF_8).indexOf('\n'), "a line never contains a newline");
      try {
        assertEquals(turn, SessionLineCodec.read(line, 0, line.length));
      } catch (SessionLineException e) {
        throw new AssertionError("cannot read back " + new String(line, StandardCharsets.UTF_8), e);
      }
    });
  }

  /** Any UTF-16 chars, surrogates included, {@code 0} to {@code maxLength} of them. */
  private static Gen<String> anyString(int maxLength) {
    return strings(chars('\u0000', '\uffff'), 0, maxLength);
  }

  private static Gen<SessionTurn> turns() {
    Gen<SessionPart> text = anyString(40).map((String s) -> new SessionPart.Text(s));
    Gen<SessionPart> image = strings(charsOf("0123456789abcdef"), 64, 64).zip(
        arbitrary().enumValues(MediaType.class), longsAcrossMagnitudes(0, 10_000_000),
        (hex, type, size) -> new SessionPart.ImageRef(new BlobKey(hex, type), size));
    Gen<SessionPart> use = anyString(8).zip(anyString(8),
        (id, name) -> new SessionPart.ToolUse(id, name, RawJson.of("{\"a\":[1,{\"b\":null}]}")));
    Gen<SessionPart> result = anyString(8).zip(lists().of(Generate.oneOf(text, image)).ofSizeBetween(0, 3),
        booleans().all(), SessionPart.ToolResult::new);
    return arbitrary().enumValues(Role.class).zip(
        longs().between(0, 4_000_000_000L).map((Long seconds) -> Instant.ofEpochSecond(seconds)),
        optional(anyString(10), 5),
        lists().of(Generate.oneOf(text, image, use, result)).ofSizeBetween(1, 4),
        SessionTurn::new);
  }
}
