package dev.tether.store.jetstream.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.generators.SourceDSL;

/** Reading {@code state.last_seq} from a STREAM.INFO answer, and refusing anything else. */
class LastSeqRequestTest {
  static long parse(String json) throws IOException {
    return LastSeqRequest.lastSeq(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void readsStateLastSeq_pastConfigAndClusterObjects() throws IOException {
    String answer = "{\"type\":\"io.nats.jetstream.api.v1.stream_info_response\",\"config\":{\"name\":\"S\",\"subjects\":[\"a.>\"],"
        + "\"max_msgs\":1033,\"sources\":[{\"name\":\"x\",\"last_seq\":99}]},\"created\":\"2026-11-25T00:00:00Z\","
        + "\"state\":{\"messages\":3,\"bytes\":10,\"first_seq\":5,\"first_ts\":\"x\",\"last_seq\":7,\"consumer_count\":1},"
        + "\"cluster\":{\"leader\":\"n1\"}}";
    assertEquals(7, parse(answer));
  }

  @Test
  void errorsAndMalformedAnswers_areRefused() {
    assertThrows(IOException.class, () -> parse("{\"type\":\"t\",\"error\":{\"code\":404,\"err_code\":10059,\"description\":\"stream not found\"}}"));
    assertThrows(IOException.class, () -> parse("{\"state\":{\"messages\":3}}"));
    assertThrows(IOException.class, () -> parse("[1,2]"));
    assertThrows(IOException.class, () -> parse("{\"state\":{\"last_seq\":\"7\"}}"));
    assertThrows(IOException.class, () -> parse("{\"state\":{\"last_seq\":7"));
    assertThrows(IOException.class, () -> parse(""));
    assertThrows(IOException.class, () -> parse("{\"state\":{\"last_seq\":-1}}"));
    assertThrows(IOException.class, () -> parse("{\"state\":{\"last_seq\":99999999999999999999}}"));
  }

  @Test
  void anyLastSeq_roundTrips() {
    QuickTheory.qt().forAll(SourceDSL.longs().between(0, Long.MAX_VALUE)).checkAssert(seq -> {
      try {
        assertEquals(seq, parse("{\"config\":{},\"state\":{\"first_seq\":1,\"last_seq\":" + seq + "}}"));
      } catch (IOException e) {
        throw new AssertionError(e);
      }
    });
  }
}
